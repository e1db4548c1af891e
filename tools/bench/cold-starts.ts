/**
 * npm run bench:cold-start: every Lambda function's cold start, module load to first answer
 * (docs/performance.md#cold-starts), beside the release of --baseline. Each design is synthesized (`cdk synth`
 * in its own tree), and each function's asset is loaded in fresh Node processes, from a folder with no
 * node_modules in reach, with the environment the stack gives it (its tables pointed at a DynamoDB Local of the
 * bench's own), then sent the probes its pre-traffic hook sends it (the stack writes them into the hook's
 * environment: lib/pre-traffic-probes.ts), in order: the first answers without a call, the second is, for most,
 * the first one through storage. Designs and functions alternate run by run.
 */
import './env';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createDynamoClient, LOCAL_DYNAMO_CONFIG } from '../../lambda/infrastructure/store/dynamo-client';
import { LOCAL_TABLE_NAMES } from '../../lambda/infrastructure/store/schema';
import { parseCommandLine, positiveIntArg, runCommand, UsageError } from '../../local/harness/cli';
import { dynamoDbLocalVersion, startDynamoDbLocal } from '../../local/harness/dynamodb-local';
import { PROJECT_ROOT } from '../../local/harness/paths';
import { freePort } from '../../local/harness/ports';
import { ensureTables } from '../../local/harness/tables';
import { describeMachine, finishMachine } from './machine';
import { commitOf, worktreeOf } from './served';
import { median } from './stats';

const USAGE = `usage: npm run bench:cold-start [-- options]

Each Lambda function's cold start: its asset loaded in a fresh Node process
(the stack's environment, tables on a DynamoDB Local of its own), then sent its
pre-traffic probes in order; load, first answer and second answer, beside the
release of --baseline.

  --runs N         fresh processes per function and design (default 10)
  --baseline REF   the commit to compare with (default ${'c1effd8'}, the release before issue 50), or none
  --out FILE       where to write the report (default bench/cold-starts.md)`;

const DEFAULT_BASELINE = 'c1effd8';

interface Template {
  Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }>;
}
interface FunctionAsset {
  description: string;
  file: string;
  bytes: number;
  memoryMb: number;
  environment: Record<string, string>;
  probes: { name: string; event: unknown }[];
}

/** A template value as plain text: references and joins of references become a stand-in name. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  const join = (value as { 'Fn::Join'?: [string, unknown[]] } | null)?.['Fn::Join'];
  if (join) return join[1].map((part) => (typeof part === 'string' ? part : 'bench-reference')).join(join[0]);
  return 'bench-reference';
}

/** The table names the stack's environment names, pointed at the bench's DynamoDB Local. */
const LOCAL_TABLES: Record<string, string> = {
  CONTACTS_TABLE_NAME: LOCAL_TABLE_NAMES.contacts,
  KEYS_TABLE_NAME: LOCAL_TABLE_NAMES.keys,
  REFERENCE_TABLE_NAME: LOCAL_TABLE_NAMES.reference,
  REPORTS_TABLE_NAME: LOCAL_TABLE_NAMES.reports,
  ALERTS_TABLE_NAME: LOCAL_TABLE_NAMES.alerts,
};

/** The functions of an assembly: each asset, with its environment and its hook's probes. */
function functionsOf(assembly: string): FunctionAsset[] {
  const manifest = JSON.parse(readFileSync(join(assembly, 'manifest.json'), 'utf8')) as {
    artifacts: Record<string, { type: string; properties?: { templateFile?: string } }>;
  };
  const templateFile = Object.values(manifest.artifacts).find((artifact) => artifact.type === 'aws:cloudformation:stack')?.properties?.templateFile as string;
  const template = JSON.parse(readFileSync(join(assembly, templateFile), 'utf8')) as Template;
  const assets = JSON.parse(readFileSync(join(assembly, templateFile.replace(/\.template\.json$/, '.assets.json')), 'utf8')) as {
    files: Record<string, { source: { path: string } }>;
  };
  const resources = Object.entries(template.Resources).filter(([, resource]) => resource.Type === 'AWS::Lambda::Function');
  const probesByTarget = new Map<string, { name: string; event: unknown }[]>();
  for (const [, hook] of resources) {
    const variables = (hook.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
    if (variables.PROBES === undefined) continue;
    const target = JSON.stringify((variables.TARGET_VERSION_ARN as { Ref?: string } | undefined)?.Ref ?? variables.TARGET_VERSION_ARN);
    probesByTarget.set(target, JSON.parse(textOf(variables.PROBES)) as { name: string; event: unknown }[]);
  }
  const functions: FunctionAsset[] = [];
  for (const [logicalId, resource] of resources) {
    const properties = resource.Properties ?? {};
    const description = String(properties.Description ?? logicalId);
    if (description.startsWith('Pre-traffic check')) continue;
    const key = (properties.Code as { S3Key?: unknown } | undefined)?.S3Key;
    if (typeof key !== 'string') continue;
    const source = assets.files[key.replace(/\.zip$/, '')]?.source.path;
    if (!source) continue;
    const file = join(assembly, source, 'index.mjs');
    const variables = (properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
    const environment = Object.fromEntries(Object.entries(variables).map(([name, value]) => [name, LOCAL_TABLES[name] ?? textOf(value)]));
    // The hook's target is this function's version: found by the version resource that names this function.
    const version = Object.entries(template.Resources).find(
      ([, candidate]) => candidate.Type === 'AWS::Lambda::Version' && JSON.stringify(candidate.Properties?.FunctionName).includes(logicalId),
    )?.[0];
    // A function no hook probes (the canary receiver) answers an empty event: its first answer, a refusal.
    const probes = (version ? probesByTarget.get(JSON.stringify(version)) : undefined) ?? [{ name: 'an empty event (no hook probes it)', event: {} }];
    functions.push({
      description: description.split(':')[0] as string,
      file,
      bytes: statSync(file).size,
      memoryMb: Number(properties.MemorySize ?? 128),
      environment,
      probes,
    });
  }
  return functions;
}

/** `cdk synth` of the project in `root` into `outdir` (its own CLI, template validation skipped: the same assets). */
function synthesizeIn(root: string, outdir: string): void {
  const run = spawnSync(join(root, 'node_modules', '.bin', 'cdk'), ['synth', '--quiet', '--output', outdir], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, CDK_DISABLE_CLI_TELEMETRY: 'true', CDK_VALIDATION: 'false' },
  });
  if (run.status !== 0) throw new Error(`cdk synth in ${root} failed: ${run.stderr || run.stdout}`);
}

const RUNNER = `const t0 = performance.now();
const { handler } = await import('./index.mjs');
const loaded = performance.now();
const probes = JSON.parse(process.env.BENCH_PROBES);
const context = { awsRequestId: 'cold-start', functionName: 'bench', getRemainingTimeInMillis: () => 30000 };
const answers = [];
for (const probe of probes.slice(0, 2)) {
  let status;
  try {
    const answer = await handler(probe.event, context);
    status = answer && typeof answer === 'object' && 'statusCode' in answer ? answer.statusCode : 'answered';
  } catch (error) {
    status = 'threw ' + (error && error.name);
  }
  answers.push({ ms: performance.now() - loaded, status });
}
process.stdout.write(JSON.stringify({ loadMs: loaded - t0, answers }) + '\\n');
process.exit(0);
`;

interface Run {
  loadMs: number;
  answers: { ms: number; status: number | string }[];
}

/** One cold start of `fn`: a fresh process in `dir` (the asset and the runner copied there). */
function coldStart(fn: FunctionAsset, dir: string, endpoint: string): Run {
  copyFileSync(fn.file, join(dir, 'index.mjs'));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    ...fn.environment,
    AWS_REGION: 'us-east-1',
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_LAMBDA_FUNCTION_NAME: 'bench',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMb),
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
    LAMBDA_TASK_ROOT: dir,
    TZ: ':UTC',
    LOG_LEVEL: 'SILENT',
    DYNAMODB_ENDPOINT: endpoint,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    BENCH_PROBES: JSON.stringify(fn.probes),
  };
  const run = spawnSync(process.execPath, ['runner.mjs'], { cwd: dir, env, encoding: 'utf8', timeout: 120_000 });
  const line = run.stdout.trim().split('\n').pop() ?? '';
  if (run.status !== 0 || !line.startsWith('{')) throw new Error(`${fn.description}: the cold start failed: ${run.stderr.slice(-500)}`);
  return JSON.parse(line) as Run;
}

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseCommandLine(argv, { runs: { type: 'string' }, baseline: { type: 'string' }, out: { type: 'string' } });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const runs = positiveIntArg('--runs', values.runs, 1000) ?? 10;
  const baseline = values.baseline ?? DEFAULT_BASELINE;
  const out = resolve(PROJECT_ROOT, values.out ?? 'bench/cold-starts.md');
  const say = (line: string) => process.stderr.write(`${line}\n`);
  const machine = describeMachine(dynamoDbLocalVersion());
  const scratch = mkdtempSync(join(tmpdir(), 'bench-cold-starts-'));
  const tree = baseline === 'none' ? undefined : worktreeOf(baseline);
  const dynamo = await startDynamoDbLocal({ port: await freePort() });
  try {
    const admin = createDynamoClient({ ...LOCAL_DYNAMO_CONFIG, requestTimeoutMs: 30_000, endpoint: dynamo.endpoint });
    await ensureTables(admin, LOCAL_TABLE_NAMES);
    admin.destroy();
    const designs: { name: string; functions: FunctionAsset[] }[] = [];
    for (const [name, root] of [['this design', PROJECT_ROOT], ...(tree ? [[`before (${commitOf(baseline)})`, tree.root]] : [])] as [string, string][]) {
      say(`cdk synth of ${name} …`);
      const assembly = join(scratch, `assembly-${designs.length}`);
      synthesizeIn(root, assembly);
      designs.push({ name, functions: functionsOf(assembly) });
    }
    const loadDir = mkdtempSync(join(tmpdir(), 'bench-cold-load-'));
    writeFileSync(join(loadDir, 'runner.mjs'), RUNNER);
    const results = new Map<string, Run[]>();
    const descriptions = [...new Set(designs.flatMap((design) => design.functions.map((fn) => fn.description)))];
    say(`${runs} cold starts of ${descriptions.length} functions per design …`);
    for (let run = 0; run < runs; run += 1) {
      for (const description of descriptions) {
        for (const design of run % 2 === 0 ? designs : [...designs].reverse()) {
          const fn = design.functions.find((candidate) => candidate.description === description);
          if (!fn) continue;
          const key = `${description}\n${design.name}`;
          results.set(key, [...(results.get(key) ?? []), coldStart(fn, loadDir, dynamo.endpoint)]);
        }
      }
    }
    rmSync(loadDir, { recursive: true, force: true });
    const done = finishMachine(machine);
    const ms = (values: number[]) => median(values).toFixed(0);
    const rows = descriptions.flatMap((description) =>
      designs.flatMap((design) => {
        const fn = design.functions.find((candidate) => candidate.description === description);
        const samples = results.get(`${description}\n${design.name}`);
        if (!fn || !samples) return [];
        const answer = (index: number) => {
          const answered = samples.map((sample) => sample.answers[index]).filter((entry) => entry !== undefined);
          if (answered.length === 0) return '—';
          return `${ms(answered.map((entry) => entry.ms))} (${[...new Set(answered.map((entry) => entry.status))].join(', ')})`;
        };
        return [
          `| ${description} | ${design.name} | ${fn.bytes.toLocaleString('en-US')} | ${ms(samples.map((sample) => sample.loadMs))} | ${answer(0)} | ${answer(1)} | ${fn.probes
            .slice(0, 2)
            .map((probe) => probe.name.split(' (')[0])
            .join('; ')} |`,
        ];
      }),
    );
    const text = [
      '# Cold starts',
      '',
      'Written by `npm run bench:cold-start` (tools/bench/cold-starts.ts); see docs/performance.md#cold-starts.',
      '',
      `Measured ${done.date} on ${done.cores} × ${done.cpuModel}, Node ${done.node}; 1-minute load average ${done.loadAtStart.toFixed(1)} at the start, ${done.loadAtEnd?.toFixed(1)} at the end. Command: \`${['npm run bench:cold-start', ...(argv.length > 0 ? ['--', ...argv] : [])].join(' ')}\`; medians of ${runs} fresh processes each, the designs alternating.`,
      '',
      "Load: the asset's `import()`. Answers: from the asset loaded to the answer of the function's first and second pre-traffic probe (its status), with the stack's environment, tables on DynamoDB Local; together they are the module load to first answer.",
      '',
      '| function | design | asset bytes | load ms | first answer ms | second answer ms | probes |',
      '|---|---|---:|---:|---:|---:|---|',
      ...rows,
      '',
    ].join('\n');
    writeFileSync(out, text);
    process.stdout.write(`${text}\n`);
    say(`written to ${out}`);
  } finally {
    await dynamo.stop();
    tree?.remove();
    rmSync(scratch, { recursive: true, force: true });
  }
});
