/**
 * The loops that need no HTTP, in their own process (forked by
 * throughput.ts): `connections` loops, each making one request after the
 * other, warm-up first, then counting what completes in the measured window.
 *   bare     the request's DynamoDB calls alone (bare-client.ts), on a client
 *            configured as the Lambda's: the throughput comparison's floor
 *   handler  the Lambda entry point (lambda/contacts/api/contacts-entry.ts) called directly
 *            with the API Gateway event of the same request: profiled when
 *            a throughput target is missed (or with --profile)
 * BENCH_DYNAMO_DELAY_MS (injected-delay.ts) puts the same delay on the
 * clients of both modes.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { ApiHandler } from '../../lambda/infrastructure/http/pipeline';
import { dynamoDependencies } from '../../lambda/contacts/api/contacts-wiring';
import { tableNamesFromEnv } from '../../lambda/infrastructure/store/schema';
import { bareOperation } from './bare-client';
import { handlerOperation } from './handler-operation';
import { benchDocumentClient, entryPoint, injectedDelayMs } from './injected-delay';
import type { BareResult, BareRun } from './ipc';
import { percentile } from './stats';

// One client for every run, as a container keeps its client (and its sockets);
// with the same injected delay as the service's when the run has one.
const delayMs = injectedDelayMs();
const tables = tableNamesFromEnv();
const doc = benchDocumentClient(delayMs);
const deps = dynamoDependencies(doc, tables);
let handler: ApiHandler | undefined;

async function operationFor(command: BareRun): Promise<() => Promise<unknown>> {
  if (command.mode === 'bare') return bareOperation(command.shape, deps, command.target);
  handler ??= await entryPoint(delayMs);
  return handlerOperation(handler, command.request, 10_000);
}

async function run(command: BareRun): Promise<BareResult> {
  const operation = await operationFor(command);
  const started = performance.now();
  const measureFrom = started + command.warmupMs;
  const measureTo = measureFrom + command.durationMs;
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let cpuAtStart: NodeJS.CpuUsage | undefined = command.warmupMs === 0 ? process.cpuUsage() : undefined;

  const profiler = command.profileFile === undefined ? undefined : new Session();
  let profiling: Promise<unknown> | undefined;
  const cpuTimer = setTimeout(() => {
    cpuAtStart ??= process.cpuUsage();
    if (profiler) {
      profiler.connect();
      profiling = profiler.post('Profiler.enable').then(() => profiler.post('Profiler.start'));
    }
  }, command.warmupMs);
  const loop = async () => {
    for (;;) {
      const sent = performance.now();
      if (sent >= measureTo) return;
      try {
        await operation();
        const done = performance.now();
        // Like a load generator: what completes inside the window counts.
        if (done >= measureFrom && done <= measureTo) latencies.push(done - sent);
      } catch (error) {
        errors += 1;
        firstError ??= error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: command.connections }, loop));
  clearTimeout(cpuTimer);
  const cpu = process.cpuUsage(cpuAtStart);
  if (profiler && profiling && command.profileFile) {
    await profiling;
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(command.profileFile, JSON.stringify(profile));
    profiler.disconnect();
  }
  return {
    type: 'result',
    requests: latencies.length,
    seconds: command.durationMs / 1000,
    p50ms: percentile(latencies, 0.5),
    p99ms: percentile(latencies, 0.99),
    errors,
    firstError,
    cpuUs: cpu.user + cpu.system,
  };
}

process.on('message', (command: BareRun | { type: 'stop' }) => {
  if (command.type === 'stop') process.exit(0);
  run(command).then(
    (result) => process.send?.(result),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
});
process.on('disconnect', () => process.exit(0));
