/**
 * The loops of the throughput run that need no HTTP, in their own process
 * (forked by throughput.ts): `connections` loops, each making one request
 * after the other, warm-up first, then counting what completes in the
 * measured window.
 *   bare     the request's DynamoDB calls alone (bare-client.ts), on a client
 *            configured as the Lambda's
 *   handler  the Lambda entry point (lambda/api/handler.ts) called directly
 *            with the API Gateway event of the same request
 * BENCH_DYNAMO_DELAY_MS (injected-delay.ts) puts the same delay on the
 * clients of both modes.
 */
import { writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { Session } from 'node:inspector/promises';
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import type { ApiHandler } from '../../lambda/api/app';
import { dynamoDependencies } from '../../lambda/api/dynamo-dependencies';
import { tableNamesFromEnv } from '../../lambda/store/schema';
import { toProxyEvent } from '../lib/http-adapter';
import { bareOperation } from './bare-client';
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

/** What the local adapter reads of a request, for toProxyEvent: the same event a real request gets. */
function fakeRequest(request: BareRun['request']): IncomingMessage {
  const rawHeaders = Object.entries(request.headers).flat();
  if (request.body !== undefined) rawHeaders.push('Content-Length', String(Buffer.byteLength(request.body)));
  return { url: request.path, method: request.method, rawHeaders, httpVersion: '1.1', socket: { remoteAddress: '127.0.0.1' } } as unknown as IncomingMessage;
}

function context(requestId: string): Context {
  const deadline = Date.now() + 10_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'contacts-api-bench',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:local:000000000000:function:contacts-api-bench',
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: 'bench',
    logStreamName: 'bench',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

async function operationFor(command: BareRun): Promise<() => Promise<unknown>> {
  if (command.mode === 'bare') return bareOperation(command.shape, deps, command.target);
  handler ??= await entryPoint(delayMs);
  const run = handler;
  const req = fakeRequest(command.request);
  const body = Buffer.from(command.request.body ?? '');
  return async () => {
    const requestId = randomUUID();
    const result = await run(toProxyEvent(req, body, requestId), context(requestId));
    if (result.statusCode >= 300) throw new Error(`handler answered ${result.statusCode}: ${result.body}`);
  };
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
