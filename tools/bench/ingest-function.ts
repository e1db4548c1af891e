/**
 * npm run bench:ingest-function: the ingest function's own CPU per lone error (docs/performance.md#cpu-per-event):
 * its asset built with the stack's bundling options, driven in-process (no HTTP, no npm start around it: what a
 * Lambda container runs), the typical 5-frame error of the own SDK a request, from an address each, against a
 * DynamoDB Local of the bench's own; the process's CPU per request after a warm-up, fresh processes alternating.
 * Three builds: as it ships; as it ships with a call log that does nothing (no AsyncLocalStorage, whose promise
 * hooks every promise of the process pays for: the call log's share, docs/performance.md#the-call-log); and the
 * release of --baseline (its own entry and bundling options, from a git worktree).
 */
import './env';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { createDynamoClient, documentClientOf, LOCAL_DYNAMO_CONFIG } from '../../lambda/infrastructure/store/dynamo-client';
import { KeyAdmin } from '../../lambda/infrastructure/store/keys/key-admin';
import { LOCAL_TABLE_NAMES } from '../../lambda/infrastructure/store/schema';
import { parseCommandLine, positiveIntArg, runCommand, UsageError } from '../../local/harness/cli';
import { dynamoDbLocalVersion, startDynamoDbLocal } from '../../local/harness/dynamodb-local';
import { PROJECT_ROOT } from '../../local/harness/paths';
import { freePort } from '../../local/harness/ports';
import { ensureTables } from '../../local/harness/tables';
import { TYPICAL_SITE, TYPICAL_USER_AGENT, typicalOwnEvent } from '../storm/typical-error';
import { describeMachine, finishMachine } from './machine';
import { commitOf, worktreeOf } from './served';
import { designNodeOptions, functionNode, NODE_USAGE } from './function-node';
import { median } from './stats';

const USAGE = `usage: npm run bench:ingest-function [-- options]

The ingest function's own CPU per lone-error request, in-process: as it ships,
with a call log that does nothing (no AsyncLocalStorage), and the release of
--baseline, in fresh processes alternately.

  --requests N     requests per process after 500 of warm-up (default 2000)
  --rounds N       processes per build, alternating (default 6)
  --baseline REF   the release to compare with (default ${'c1effd8'}), or none
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

const DRIVER = (requests: number) => `const { handler } = await import('./index.mjs');
const events = JSON.parse(process.env.BENCH_EVENTS);
const context = { awsRequestId: 'call-log', getRemainingTimeInMillis: () => 10000 };
let n = 0;
const one = async () => {
  const event = structuredClone(events);
  const body = JSON.parse(event.body);
  body.events[0].eventId = crypto.randomUUID();
  event.body = JSON.stringify(body);
  event.requestContext.identity.sourceIp = '10.' + ((n >> 16) & 255) + '.' + ((n >> 8) & 255) + '.' + (n & 255);
  n += 1;
  const answer = await handler(event, context);
  if (answer.statusCode !== 202) throw new Error('answered ' + answer.statusCode + ' ' + answer.body);
};
for (let i = 0; i < 500; i += 1) await one();
const before = process.cpuUsage();
for (let i = 0; i < ${requests}; i += 1) await one();
const used = process.cpuUsage(before);
process.stdout.write(JSON.stringify({ cpuUsPerRequest: (used.user + used.system) / ${requests}, userUs: used.user / ${requests}, systemUs: used.system / ${requests} }) + '\\n');
process.exit(0);
`;

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
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const requests = positiveIntArg('--requests', values.requests, 100_000) ?? 2000;
  const rounds = positiveIntArg('--rounds', values.rounds, 100) ?? 6;
  const baseline = values.baseline ?? DEFAULT_BASELINE;
  const node = await functionNode(values.node, (line) => process.stderr.write(`${line}\n`));
  const tree = baseline === 'none' ? undefined : worktreeOf(baseline);
  const machine = describeMachine(dynamoDbLocalVersion());
  const dir = mkdtempSync(join(tmpdir(), 'bench-call-log-'));
  const dynamo = await startDynamoDbLocal({ port: await freePort() });
  try {
    const client = createDynamoClient({ ...LOCAL_DYNAMO_CONFIG, requestTimeoutMs: 30_000, endpoint: dynamo.endpoint });
    await ensureTables(client, LOCAL_TABLE_NAMES);
    const { key } = await new KeyAdmin(documentClientOf(client), LOCAL_TABLE_NAMES.keys).create({
      factoryId: 'fac_call_log',
      type: 'publishable',
      origins: [TYPICAL_SITE],
      rateLimit: 1_000_000,
    });
    client.destroy();
    const builds: { name: string; root: string; withoutCallLog: boolean }[] = [
      { name: SHIPPED, root: PROJECT_ROOT, withoutCallLog: false },
      { name: NO_CALL_LOG_BUILD, root: PROJECT_ROOT, withoutCallLog: true },
      ...(tree ? [{ name: `before (${commitOf(baseline)})`, root: tree.root, withoutCallLog: false }] : []),
    ];
    const variants: Record<string, string> = {};
    // Each build runs with the NODE_OPTIONS its design's stack gives the function, as Lambda's node would.
    const nodeOptions: Record<string, string> = {};
    for (const [index, { name, root, withoutCallLog }] of builds.entries()) {
      const folder = join(dir, `build-${index}`);
      await buildAsset(root, join(folder, 'index.mjs'), withoutCallLog);
      writeFileSync(join(folder, 'driver.mjs'), DRIVER(requests));
      variants[name] = folder;
      nodeOptions[name] = await designNodeOptions(root, node);
    }
    const event = {
      resource: '/{proxy+}',
      path: '/ingest/v1/events',
      httpMethod: 'POST',
      headers: { origin: TYPICAL_SITE, authorization: `Bearer ${key}`, 'content-type': 'text/plain;charset=UTF-8', 'user-agent': TYPICAL_USER_AGENT },
      multiValueHeaders: {},
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      pathParameters: { proxy: 'ingest/v1/events' },
      requestContext: { requestId: 'call-log', identity: { sourceIp: '10.0.0.1' } },
      body: JSON.stringify({ events: [typicalOwnEvent()] }),
      isBase64Encoded: false,
    };
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
      BENCH_EVENTS: JSON.stringify(event),
    };
    const cpu: Record<string, number[]> = Object.fromEntries(builds.map(({ name }) => [name, []]));
    for (let round = 0; round < rounds; round += 1) {
      // Each round starts with another build, so that a drift of the machine's load meets them alike.
      const order = Object.entries(variants);
      for (let k = 0; k < round % order.length; k += 1) order.push(order.shift() as [string, string]);
      for (const [name, folder] of order) {
        // The function's log lines go to a pipe read and dropped here, as Lambda's runtime reads them.
        const options = nodeOptions[name] ? { NODE_OPTIONS: nodeOptions[name] } : {};
        const run = spawnSync(node.path, ['driver.mjs'], { cwd: folder, env: { ...env, ...options }, encoding: 'utf8', maxBuffer: 1 << 30 });
        const line = run.stdout
          .trim()
          .split('\n')
          .find((text) => text.startsWith('{"cpuUsPerRequest"'));
        if (run.status !== 0 || !line) throw new Error(`${name}: ${run.stderr.slice(-800)}`);
        (cpu[name] as number[]).push((JSON.parse(line) as { cpuUsPerRequest: number }).cpuUsPerRequest);
        process.stderr.write(`${name}: ${(cpu[name] as number[]).at(-1)?.toFixed(0)} µs of CPU per request\n`);
      }
    }
    const done = finishMachine(machine);
    const medians = Object.fromEntries(Object.entries(cpu).map(([name, values]) => [name, median(values)])) as Record<string, number>;
    const shipped = medians[SHIPPED] as number;
    const lines = Object.entries(cpu).map(
      ([name, values]) =>
        `| ${name} | ${(medians[name] as number).toFixed(0)} | ${values.map((us) => us.toFixed(0)).join(', ')} | ${Math.round(1e6 / (medians[name] as number))} |`,
    );
    const callLog = shipped - (medians[NO_CALL_LOG_BUILD] as number);
    process.stdout.write(
      [
        `Measured ${done.date} on ${done.cores} × ${done.cpuModel}, the function on Node ${node.version} (${Object.entries(nodeOptions)
          .map(([name, flags]) => `${name}: ${flags ? `NODE_OPTIONS=${flags}` : 'no NODE_OPTIONS'}`)
          .join(
            '; ',
          )}); 1-minute load average ${done.loadAtStart.toFixed(1)} at the start, ${done.loadAtEnd?.toFixed(1)} at the end. Command: \`${['npm run bench:ingest-function', ...(argv.length > 0 ? ['--', ...argv] : [])].join(' ')}\`.`,
        '',
        `| the ingest function (in-process, ${requests} lone errors a process after 500) | CPU µs per request, median | each process | requests per CPU-second |`,
        '|---|---:|---|---:|',
        ...lines,
        '',
        `The call log (AsyncLocalStorage): ${callLog.toFixed(0)} µs a request, ${((100 * callLog) / shipped).toFixed(1)} % of the function's CPU.`,
        '',
      ].join('\n'),
    );
  } finally {
    await dynamo.stop();
    rmSync(dir, { recursive: true, force: true });
    tree?.remove();
  }
});
