/**
 * npm run bench:ingest-function: the ingest function's own CPU per lone error (docs/performance.md#cpu-per-event):
 * its asset built with the stack's bundling options, driven in-process (no HTTP, no npm start around it: what a
 * Lambda container runs), the typical 5-frame error a request (the own SDK's or Sentry's), from an address each, against a
 * DynamoDB Local of the bench's own; the process's CPU per request after a warm-up (or, with --instructions, its
 * instructions, counted by valgrind), fresh processes alternating, on Node.js 22 (the functions' runtime). The
 * builds: as it ships; as it ships with a call log that does nothing (no AsyncLocalStorage, no timing of the calls:
 * the call log's share, docs/performance.md#the-call-log); and the release of --baseline (its own entry and bundling
 * options, from a git worktree). Each build is driven with the own SDK's request and with the envelope Sentry's
 * browser SDK sends for the same error (lone-error-requests.ts), so the two protocols compare on the function alone.
 */
import './env';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { createDynamoClient, documentClientOf, LOCAL_DYNAMO_CONFIG } from '../../lambda/infrastructure/store/dynamo-client';
import { KeyAdmin } from '../../lambda/infrastructure/store/keys/key-admin';
import { LOCAL_TABLE_NAMES } from '../../lambda/infrastructure/store/schema';
import { parseCommandLine, positiveIntArg, runCommand, UsageError } from '../../local/harness/cli';
import { dynamoDbLocalVersion, startDynamoDbLocal } from '../../local/harness/dynamodb-local';
import { PROJECT_ROOT } from '../../local/harness/paths';
import { freePort } from '../../local/harness/ports';
import { ensureTables } from '../../local/harness/tables';
import { TYPICAL_SITE } from '../storm/typical-error';
import { loneErrorRequest, type LoneErrorProtocol } from './lone-error-requests';
import { describeMachine, finishMachine } from './machine';
import { commitOf, worktreeOf } from './served';
import { functionNode, NODE_USAGE } from './function-node';
import { hasValgrind, instructionsOf } from './instruction-count';
import { median } from './stats';

const USAGE = `usage: npm run bench:ingest-function [-- options]

The ingest function's own CPU per lone-error request, in-process: as it ships,
with a call log that does nothing (no AsyncLocalStorage), and the release of
--baseline, in fresh processes alternately; each build driven with the own
SDK's request and with Sentry's browser SDK's envelope of the same error (the
typical error, the headers of bench:cpu), and the two compared.

  --requests N     requests per process after 500 of warm-up (default 2000)
  --rounds N       processes per build and protocol, alternating (default 6)
  --protocol P     own, sentry or both (default both)
  --baseline REF   the release to compare with (default ${'c1effd8'}), or none
  --skip-call-log  leave out the build with a call log that does nothing
  --instructions   count instructions per request with valgrind instead of timing CPU (does not move
                   with the machine's load; --requests then defaults to 300, about a minute a process)
  --profile DIR    (CPU timing only) run each process under node --cpu-prof, its profile written to
                   DIR/<build and protocol>/ with the asset and its source map, which reads the
                   profile's frames in the minified asset back to their sources
${NODE_USAGE}`;

const DEFAULT_BASELINE = 'c1effd8';

/** The call log without an async context: what the shipped one costs is the difference. */
const NO_CALL_LOG = `export const newCallLog = () => ({ calls: 0, latenciesMs: [] });
export function withCallLog(_log, work) { return work(); }
export function countCall() {}
export const counting = () => false;
`;

const SHIPPED = 'as it ships';
const NO_CALL_LOG_BUILD = 'as it ships, no call log';

const DRIVER = `const requests = Number(process.env.BENCH_REQUESTS);
const { handler } = await import('./index.mjs');
const { event: template, placeholder, idForm } = JSON.parse(process.env.BENCH_REQUEST);
const context = { awsRequestId: 'call-log', getRemainingTimeInMillis: () => 10000 };
let n = 0;
// Each request a new event (a fresh id in the body) from an address of its own; the rest as the template.
const one = async () => {
  const id = idForm === 'hex' ? crypto.randomUUID().replaceAll('-', '') : crypto.randomUUID();
  const identity = { ...template.requestContext.identity, sourceIp: '10.' + ((n >> 16) & 255) + '.' + ((n >> 8) & 255) + '.' + (n & 255) };
  const event = { ...template, body: template.body.replaceAll(placeholder, id), requestContext: { ...template.requestContext, identity } };
  n += 1;
  const answer = await handler(event, context);
  if (answer.statusCode < 200 || answer.statusCode > 299) throw new Error('answered ' + answer.statusCode + ' ' + answer.body);
};
for (let i = 0; i < 500; i += 1) await one();
const before = process.cpuUsage();
for (let i = 0; i < requests; i += 1) await one();
const used = process.cpuUsage(before);
process.stdout.write(JSON.stringify({ cpuUsPerRequest: (used.user + used.system) / requests, userUs: used.user / requests, systemUs: used.system / requests }) + '\\n');
process.exit(0);
`;

/** A build, in its folder, driven with one protocol's request. */
interface Variant {
  name: string;
  build: string;
  protocol: LoneErrorProtocol;
  folder: string;
}

const PROTOCOL_NAMES: Record<LoneErrorProtocol, string> = { own: 'own protocol', sentry: 'Sentry envelope' };

/** One process's CPU per request after the warm-up: user and system together, and each. */
interface CpuFigure {
  cpuUsPerRequest: number;
  userUs: number;
  systemUs: number;
}

function cpuPerRequest(node: string, folder: string, env: NodeJS.ProcessEnv, name: string, profileDir: string | undefined): CpuFigure {
  const profiling = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  // The asset and its map beside the profile: the profile's frames are in the minified asset, the map reads them back.
  if (profileDir) for (const file of ['index.mjs', 'index.mjs.map']) cpSync(join(folder, file), join(profileDir, file));
  // The function's log lines go to a pipe read and dropped here, as Lambda's runtime reads them.
  const run = spawnSync(node, [...profiling, 'driver.mjs'], { cwd: folder, env, encoding: 'utf8', maxBuffer: 1 << 30 });
  const line = run.stdout
    .trim()
    .split('\n')
    .find((text) => text.startsWith('{"cpuUsPerRequest"'));
  if (run.status !== 0 || !line) throw new Error(`${name}: ${run.stderr.slice(-800)}`);
  return JSON.parse(line) as CpuFigure;
}

/**
 * Instructions per request, counted by valgrind (cachegrind, no cache simulation): two processes of `requests` and
 * 3 × `requests` requests after the same warm-up, the difference divided by the requests between them, so start-up,
 * warm-up and the JIT's first compiles cancel out (the method of instruction-count.ts). Unlike CPU time, the count does
 * not move with the machine's load.
 */
async function instructionsPerRequest(node: string, folder: string, envOf: (requests: number) => NodeJS.ProcessEnv, requests: number): Promise<number> {
  const [few, many] = await Promise.all([requests, 3 * requests].map((count) => instructionsOf([node, 'driver.mjs'], { cwd: folder, env: envOf(count) })));
  return ((many as number) - (few as number)) / (2 * requests);
}

/** The ingest entry of the project in `root`, bundled with that project's own options (lib/service-function.ts). */
async function buildAsset(root: string, outfile: string, withoutCallLog: boolean): Promise<void> {
  const { BUNDLING } = (await import(join(root, 'lib', 'service-function'))) as typeof import('../../lib/service-function');
  const alias: Record<string, string> = {};
  for (const [flag, value] of Object.entries(BUNDLING.esbuildArgs ?? {}))
    if (flag.startsWith('--alias:') && typeof value === 'string') alias[flag.slice(8)] = value;
  await build({
    absWorkingDir: root,
    entryPoints: ['lambda/ingest/api/ingest-entry.ts'],
    bundle: true,
    platform: 'node',
    target: BUNDLING.target,
    format: 'esm',
    minify: true,
    mainFields: BUNDLING.mainFields,
    banner: BUNDLING.banner ? { js: BUNDLING.banner } : undefined,
    alias,
    outfile,
    // A map beside the asset, so that a --profile's frames can be read back to their sources (the code is the same).
    sourcemap: 'external',
    logLevel: 'error',
    plugins: withoutCallLog
      ? [
          {
            name: 'no-call-log',
            setup(plugin) {
              plugin.onLoad({ filter: /observability[\\/]call-log\.ts$/ }, () => ({ contents: NO_CALL_LOG, loader: 'js' }));
            },
          },
        ]
      : [],
  });
}

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseCommandLine(argv, {
    requests: { type: 'string' },
    rounds: { type: 'string' },
    baseline: { type: 'string' },
    node: { type: 'string' },
    instructions: { type: 'boolean' },
    protocol: { type: 'string' },
    'skip-call-log': { type: 'boolean' },
    profile: { type: 'string' },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const instructions = values.instructions === true;
  const requests = positiveIntArg('--requests', values.requests, 100_000) ?? (instructions ? 300 : 2000);
  const rounds = positiveIntArg('--rounds', values.rounds, 100) ?? 6;
  const baseline = values.baseline ?? DEFAULT_BASELINE;
  const protocolValue = values.protocol ?? 'both';
  if (!['own', 'sentry', 'both'].includes(protocolValue)) throw new UsageError(`--protocol must be own, sentry or both, got "${protocolValue}"`);
  const protocols: LoneErrorProtocol[] = protocolValue === 'both' ? ['own', 'sentry'] : [protocolValue as LoneErrorProtocol];
  const profileDir = values.profile === undefined ? undefined : resolve(values.profile);
  if (profileDir && instructions) throw new UsageError('--profile profiles the CPU-timed processes; leave out --instructions');
  if (instructions && !hasValgrind()) throw new UsageError('--instructions counts with valgrind, which is not on PATH (Debian package valgrind)');
  const node = await functionNode(values.node, (line) => process.stderr.write(`${line}\n`));
  const tree = baseline === 'none' ? undefined : worktreeOf(baseline);
  const machine = describeMachine(dynamoDbLocalVersion());
  const dir = mkdtempSync(join(tmpdir(), 'bench-call-log-'));
  const dynamo = await startDynamoDbLocal({ port: await freePort() });
  try {
    const client = createDynamoClient({ ...LOCAL_DYNAMO_CONFIG, requestTimeoutMs: 30_000, endpoint: dynamo.endpoint });
    await ensureTables(client, LOCAL_TABLE_NAMES);
    const { key, keyId } = await new KeyAdmin(documentClientOf(client), LOCAL_TABLE_NAMES.keys).create({
      factoryId: 'fac_call_log',
      type: 'publishable',
      origins: [TYPICAL_SITE],
      rateLimit: 1_000_000,
    });
    client.destroy();
    const builds: { name: string; root: string; withoutCallLog: boolean }[] = [
      { name: SHIPPED, root: PROJECT_ROOT, withoutCallLog: false },
      ...(values['skip-call-log'] === true ? [] : [{ name: NO_CALL_LOG_BUILD, root: PROJECT_ROOT, withoutCallLog: true }]),
      ...(tree ? [{ name: `before (${commitOf(baseline)})`, root: tree.root, withoutCallLog: false }] : []),
    ];
    const variants: Variant[] = [];
    for (const [index, { name, root, withoutCallLog }] of builds.entries()) {
      const folder = join(dir, `build-${index}`);
      await buildAsset(root, join(folder, 'index.mjs'), withoutCallLog);
      writeFileSync(join(folder, 'driver.mjs'), DRIVER);
      for (const protocol of protocols) variants.push({ name: `${name}, ${PROTOCOL_NAMES[protocol]}`, build: name, protocol, folder });
    }
    const requestOf = Object.fromEntries(
      await Promise.all(protocols.map(async (protocol) => [protocol, JSON.stringify(await loneErrorRequest(protocol, key, keyId))] as const)),
    ) as Record<LoneErrorProtocol, string>;
    const env = {
      PATH: process.env.PATH,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      KEYS_TABLE_NAME: LOCAL_TABLE_NAMES.keys,
      REPORTS_TABLE_NAME: LOCAL_TABLE_NAMES.reports,
      LOG_LEVEL: 'INFO',
      POWERTOOLS_METRICS_DISABLED: 'true',
    };
    const envOf = (protocol: LoneErrorProtocol) => (count: number) => ({ ...env, BENCH_REQUEST: requestOf[protocol], BENCH_REQUESTS: String(count) });
    const figures: Record<string, number[]> = Object.fromEntries(variants.map(({ name }) => [name, []]));
    for (let round = 0; round < rounds; round += 1) {
      // Each round starts with another variant, so that a drift of the machine's load meets them alike.
      const order = [...variants];
      for (let k = 0; k < round % order.length; k += 1) order.push(order.shift() as Variant);
      for (const variant of order) {
        const cpu = instructions
          ? undefined
          : cpuPerRequest(
              node.path,
              variant.folder,
              envOf(variant.protocol)(requests),
              variant.name,
              profileDir && join(profileDir, variant.name.replace(/[^\w.-]+/g, '-')),
            );
        const figure = cpu ? cpu.cpuUsPerRequest : await instructionsPerRequest(node.path, variant.folder, envOf(variant.protocol), requests);
        (figures[variant.name] as number[]).push(figure);
        const split = cpu ? ` (user ${cpu.userUs.toFixed(0)}, system ${cpu.systemUs.toFixed(0)})` : '';
        process.stderr.write(`${variant.name}: ${figure.toFixed(0)} ${instructions ? 'instructions' : 'µs of CPU'} per request${split}\n`);
      }
    }
    const done = finishMachine(machine);
    const medians = Object.fromEntries(Object.entries(figures).map(([name, values]) => [name, median(values)])) as Record<string, number>;
    const unit = instructions ? 'instructions per request' : 'CPU µs per request';
    const lines = Object.entries(figures).map(
      ([name, values]) =>
        `| ${name} | ${(medians[name] as number).toFixed(0)} | ${values.map((value) => value.toFixed(0)).join(', ')} |${instructions ? '' : ` ${Math.round(1e6 / (medians[name] as number))} |`}`,
    );
    const unitWord = instructions ? 'instructions' : 'µs';
    const medianOf = (build: string, protocol: LoneErrorProtocol) => medians[`${build}, ${PROTOCOL_NAMES[protocol]}`];
    // What the call log adds to the function as it ships, per protocol (the build without it driven too).
    const callLogShare = protocols.flatMap((protocol) => {
      const shipped = medianOf(SHIPPED, protocol);
      const other = medianOf(NO_CALL_LOG_BUILD, protocol);
      if (shipped === undefined || other === undefined) return [];
      const delta = shipped - other;
      return [
        `The call log as it ships (its AsyncLocalStorage, the timing and counting of each storage call), ${PROTOCOL_NAMES[protocol]}: ${delta.toFixed(0)} ${unitWord} a request, ${((100 * delta) / shipped).toFixed(1)} % of the function's ${instructions ? 'instructions' : 'CPU'} as it ships.`,
        '',
      ];
    });
    // The two protocols side by side, per build: the question of issue 50 (why an own request cost more than an envelope).
    const sentryVsOwn = [...new Set(variants.map((variant) => variant.build))].flatMap((build) => {
      const own = medianOf(build, 'own');
      const sentry = medianOf(build, 'sentry');
      if (own === undefined || sentry === undefined) return [];
      return [`Sentry envelope ÷ own request, ${build}: ${(sentry / own).toFixed(3)} (${(sentry - own).toFixed(0)} ${unitWord} a request).`, ''];
    });
    process.stdout.write(
      [
        `Measured ${done.date} on ${done.cores} × ${done.cpuModel}, the function on Node ${node.version}; 1-minute load average ${done.loadAtStart.toFixed(1)} at the start, ${done.loadAtEnd?.toFixed(1)} at the end. Command: \`${['npm run bench:ingest-function', ...(argv.length > 0 ? ['--', ...argv] : [])].join(' ')}\`.`,
        '',
        instructions
          ? `| the ingest function (in-process, lone errors after 500 of warm-up; valgrind, ${requests} and ${3 * requests} requests a process) | ${unit}, median | each pair of processes |`
          : `| the ingest function (in-process, ${requests} lone errors a process after 500) | ${unit}, median | each process | requests per CPU-second |`,
        instructions ? '|---|---:|---|' : '|---|---:|---|---:|',
        ...lines,
        '',
        ...sentryVsOwn,
        ...callLogShare,
      ].join('\n'),
    );
  } finally {
    await dynamo.stop();
    rmSync(dir, { recursive: true, force: true });
    tree?.remove();
  }
});
