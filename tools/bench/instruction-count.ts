/**
 * Instructions per request, the bare client's DynamoDB calls against the
 * Lambda handler making the same calls, counted by valgrind (cachegrind, no
 * cache simulation). Times on this shared VM swing by tens of percent and
 * depend on what else runs; these counts do not, and repeat within a few
 * percent (JIT and GC timing still vary). What the ratio shows is what the
 * handler itself adds: Middy, the key check around the call, routing,
 * validation, logs, metrics.
 *
 * Each count is one process making N requests; the per-request figure is
 * the difference between two such processes (N2 − N1 requests), so start-up
 * and warm-up cancel out. Needs valgrind on PATH (Debian package valgrind).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dynamoDependencies } from '../../lambda/contacts/api/contacts-wiring';
import { bareOperation, type BareShape } from './bare-client';
import { bundleEntry } from './bundle-entry';
import { DRIVER_ENV, type DriverSetup } from './ipc';
import type { BenchStore } from './store';
import { functionEnv, requestOf, workloads, type Workload } from './throughput';

export interface InstructionCount {
  shape: BareShape;
  label: string;
  /** Instructions per request. */
  bare: number;
  handler: number;
}

export interface InstructionResult {
  counts: InstructionCount[];
  /** The two request counts whose difference makes each figure. */
  requests: [number, number];
  node: string;
}

/**
 * 1,800 and 3,000: the difference is only steady state if both processes
 * are past the JIT's warm-up, which under valgrind takes well over a
 * thousand requests, for the SDK as much as for the handler. At 600 and
 * 1,800 the bare client's upsert read 5.82 M instructions per request, at
 * 1,800 and 3,000 4.55 M; the handler's extra 0.57 M there was mostly its
 * own code still being compiled (0.07 M here). In memory (no SDK) the
 * handler's pipeline read 0.50 M at 600/1800, 0.28 M at 1200/2400, 0.21 M
 * at 1800/3000 and 0.19 M at 2000/6000.
 */
export const DEFAULT_INSTRUCTION_REQUESTS: [number, number] = [1800, 3000];

export const hasValgrind = (): boolean => spawnSync('valgrind', ['--version']).status === 0;

/** Total instructions (cachegrind's "I refs") of one process: `command` (a program and its arguments) under valgrind. */
export function instructionsOf(command: readonly string[], options: { env: NodeJS.ProcessEnv; cwd?: string }): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn('valgrind', ['--tool=cachegrind', '--cache-sim=no', '--smc-check=all-non-file', '--cachegrind-out-file=/dev/null', ...command], {
      env: options.env,
      cwd: options.cwd,
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
  const setup = (requests: number): DriverSetup => ({ mode, shape: workload.shape, requests, target: workload.target, request: requestOf(workload) });
  const [few, many] = await Promise.all([
    instructionsOf([process.execPath, bundle], { env: driverEnv(store, setup(n1)) }),
    instructionsOf([process.execPath, bundle], { env: driverEnv(store, setup(n2)) }),
  ]);
  return (many - few) / (n2 - n1);
}

/** Counts both modes for each shape asked, on `store`. */
export async function countInstructions(
  store: BenchStore,
  options: { shapes: BareShape[]; requests: [number, number]; onProgress?: (line: string) => void },
): Promise<InstructionResult> {
  const say = options.onProgress ?? (() => undefined);
  const dir = mkdtempSync(join(tmpdir(), 'contacts-instructions-'));
  const bundle = join(dir, 'driver.cjs');
  try {
    await bundleEntry(join(__dirname, 'instructions-driver.ts'), bundle);
    const { upsert, get } = await workloads(store);
    // The contact both workloads touch, written once before anything is counted.
    await bareOperation('upsert', dynamoDependencies(store.doc, store.tables), upsert.target)();
    const counts: InstructionCount[] = [];
    for (const workload of [upsert, get].filter((w) => options.shapes.includes(w.shape))) {
      say(`  ${workload.label}: bare client, then handler, ${options.requests[0]} and ${options.requests[1]} requests each under valgrind …`);
      const bare = await perRequest(store, bundle, workload, 'bare', options.requests);
      const handler = await perRequest(store, bundle, workload, 'handler', options.requests);
      say(
        `  ${workload.label}: bare ${(bare / 1e6).toFixed(2)} M, handler ${(handler / 1e6).toFixed(2)} M instructions per request (${(handler / bare).toFixed(3)})`,
      );
      counts.push({ shape: workload.shape, label: workload.label, bare, handler });
    }
    return { counts, requests: options.requests, node: process.version };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `--instructions-requests 100,300`: two whole numbers, the second larger. */
export function requestsArg(name: string, value: string | undefined): [number, number] | undefined {
  if (value === undefined) return undefined;
  const parts = value.split(',').map(Number);
  const [n1, n2] = parts;
  if (parts.length !== 2 || !Number.isInteger(n1) || !Number.isInteger(n2) || (n1 as number) < 1 || (n2 as number) <= (n1 as number)) {
    throw new Error(`${name} takes two whole numbers, the second larger: "300,900", got "${value}"`);
  }
  return [n1 as number, n2 as number];
}
