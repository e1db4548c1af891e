/**
 * Instructions per request, the bare client's DynamoDB calls against the
 * Lambda handler making the same calls, counted by valgrind (cachegrind, no
 * cache simulation). Times on this shared VM swing by tens of percent and
 * depend on what else runs; these counts do not, and repeat within about
 * 5 % (JIT and GC timing still vary), so a difference under ~0.4 million is
 * noise. What it shows is what the handler itself adds: Middy, the key
 * check around the call, routing, validation, logs, metrics, the request's
 * call stats.
 *
 *   node --import tsx tools/bench/instructions.ts [--shapes get,upsert] [--requests 300,900]
 *
 * Each count is one process making N requests; the per-request figure is
 * the difference between two such processes (N2 − N1 requests), so start-up
 * and warm-up cancel out. Needs valgrind on PATH (Debian package valgrind).
 * About 12 minutes with the defaults, on DynamoDB Local (or DYNAMODB_ENDPOINT).
 */
import './env';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { dynamoDependencies } from '../../lambda/api/dynamo-dependencies';
import { parseCommandLine, runCommand, UsageError } from '../../local/cli';
import { SetupError } from '../../local/setup-error';
import { bareOperation, type BareShape } from './bare-client';
import { DRIVER_ENV, type DriverSetup } from './ipc';
import { openBenchStore, type BenchStore } from './store';
import { functionEnv, requestOf, workloads, type Workload } from './throughput';

const USAGE = `usage: node --import tsx tools/bench/instructions.ts [options]

Counts the instructions the bare client's DynamoDB calls and the Lambda
handler making the same calls execute per request, under valgrind, and
prints what the handler adds. Unlike times on this machine, counts do not
depend on what else runs; runs repeat within about 5 %. Needs valgrind;
about 12 minutes.

  --shapes LIST     get, upsert or both (default get,upsert)
  --requests N1,N2  requests in the two processes compared (default 300,900)`;

interface Count {
  shape: BareShape;
  bare: number;
  handler: number;
}

/** Total instructions (cachegrind's "I refs") of one driver process. */
function countInstructions(bundle: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn('valgrind', ['--tool=cachegrind', '--cache-sim=no', '--smc-check=all-non-file', '--cachegrind-out-file=/dev/null', process.execPath, bundle], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const refs = /I\s+refs:\s+([\d,]+)/.exec(stderr)?.[1];
      if (code !== 0 || !refs) reject(new Error(`valgrind run failed (exit ${code}): ${stderr.slice(-2000)}`));
      else resolve(Number(refs.replace(/,/g, '')));
    });
  });
}

/** The function's environment, as the throughput run gives it (logs and metrics on, to /dev/null here), no injected delay. */
function driverEnv(store: BenchStore, setup: DriverSetup): NodeJS.ProcessEnv {
  return { ...functionEnv(store, { LOG_LEVEL: 'INFO', POWERTOOLS_METRICS_DISABLED: 'false' }, 0), [DRIVER_ENV]: JSON.stringify(setup) };
}

/** Instructions per request of one mode: two processes side by side (one per core), N2 − N1 requests apart. */
async function perRequest(store: BenchStore, bundle: string, workload: Workload, mode: DriverSetup['mode'], [n1, n2]: [number, number]) {
  const setup = (requests: number): DriverSetup => ({
    mode,
    shape: workload.shape,
    requests,
    target: workload.target,
    request: requestOf(workload),
  });
  const [few, many] = await Promise.all([countInstructions(bundle, driverEnv(store, setup(n1))), countInstructions(bundle, driverEnv(store, setup(n2)))]);
  return (many - few) / (n2 - n1);
}

function requestsArg(value: string | undefined): [number, number] {
  if (value === undefined) return [300, 900];
  const parts = value.split(',').map(Number);
  const [n1, n2] = parts;
  if (parts.length !== 2 || !Number.isInteger(n1) || !Number.isInteger(n2) || (n1 as number) < 1 || (n2 as number) <= (n1 as number)) {
    throw new UsageError(`--requests takes two whole numbers, the second larger: "300,900", got "${value}"`);
  }
  return [n1 as number, n2 as number];
}

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseCommandLine(argv, { shapes: { type: 'string' }, requests: { type: 'string' } });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const shapes = (values.shapes ?? 'get,upsert').split(',');
  for (const shape of shapes) if (shape !== 'get' && shape !== 'upsert') throw new UsageError(`--shapes takes get and/or upsert, got "${shape}"`);
  const requests = requestsArg(values.requests);
  if (spawnSync('valgrind', ['--version']).status !== 0) {
    throw new SetupError('valgrind is not on PATH: install it (Debian: apt-get install valgrind) to count instructions.');
  }
  const say = (line: string) => process.stderr.write(`${line}\n`);
  const dir = mkdtempSync(join(tmpdir(), 'contacts-instructions-'));
  const bundle = join(dir, 'driver.cjs');
  say('bundling the driver …');
  await build({ entryPoints: [join(__dirname, 'instructions-driver.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: bundle, logLevel: 'error' });
  say('starting the store …');
  const store = await openBenchStore();
  const counts: Count[] = [];
  try {
    const { upsert, get } = await workloads(store);
    // The contact both workloads touch, written once before anything is counted.
    await bareOperation('upsert', dynamoDependencies(store.doc, store.tables), upsert.target)();
    for (const workload of [get, upsert].filter((w) => shapes.includes(w.shape))) {
      say(`${workload.label}: bare client, then handler, ${requests[0]} and ${requests[1]} requests each under valgrind …`);
      const bare = await perRequest(store, bundle, workload, 'bare', requests);
      const handler = await perRequest(store, bundle, workload, 'handler', requests);
      counts.push({ shape: workload.shape, bare, handler });
    }
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const m = (n: number) => (n / 1e6).toFixed(2);
  const lines = [
    `Instructions per request (millions; ${requests[1]} − ${requests[0]} requests; Node ${process.version}):`,
    '',
    '| shape | bare client | handler | handler − bare | handler / bare |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...counts.map((c) => `| ${c.shape} | ${m(c.bare)} | ${m(c.handler)} | ${m(c.handler - c.bare)} | ${(c.handler / c.bare).toFixed(3)} |`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
});
