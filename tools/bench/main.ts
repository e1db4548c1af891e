/**
 * npm run bench: DynamoDB calls and rounds per request, latency in rounds,
 * throughput of the service against the empty service (the same calls behind
 * the same HTTP adapter), instructions per request of the handler against
 * the bare client (valgrind), cold start and bundle, cost on paper.
 * Starts what it needs (an in-memory DynamoDB Local unless DYNAMODB_ENDPOINT
 * is set), issues its own keys, prints the report and writes it to
 * bench/results.md. See docs/performance.md.
 */
import './env';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { parseCommandLine, positiveIntArg, runCommand, UsageError } from '../../local/harness/cli';
import { PROJECT_ROOT } from '../../local/harness/paths';
import { GZIP_BUDGET_BYTES, measureScript } from '../../browser-sdk/bundles';
import { measureColdStart, type ColdStartResult } from './cold-start';
import { startContainer } from './container';
import { countInstructions, DEFAULT_INSTRUCTION_REQUESTS, hasValgrind, requestsArg } from './instruction-count';
import { describeMachine, finishMachine } from './machine';
import { readProfile, summarizeProfiles } from './profile';
import { INSTRUCTIONS_TARGET, renderReport, SERVICE_VS_EMPTY_TARGET, type BenchReport } from './report';
import { measureRoundTrips, type ShapeResult } from './round-trips';
import { SHAPES } from './shapes';
import { median } from './stats';
import { openBenchStore } from './store';
import { measureThroughput, profileService, type ThroughputResult } from './throughput';

const PHASES = ['rounds', 'cold', 'throughput', 'instructions', 'profile'] as const;
type Phase = (typeof PHASES)[number];

const USAGE = `usage: npm run bench [-- options]

Measures the contacts API and prints a report (also written to bench/results.md):
DynamoDB calls and sequential rounds per request shape, latency with an
injected DynamoDB delay, throughput of the service against the empty service
(the same DynamoDB calls behind the same HTTP adapter, nothing else) with an
in-region delay on every call, instructions per request of the handler
against the bare client making the same calls (valgrind), the Lambda bundle
and its cold start, and the cost per million requests. Runs on an in-memory
DynamoDB Local it starts (or on DYNAMODB_ENDPOINT when set). About 10 minutes
with the defaults plus about 18 for the instruction counts on a quiet
machine; --quick runs everything shorter (about 5 minutes, noisier).

  --samples N       requests per shape, without and with the delay (default 6)
  --delay MS        delay added to each DynamoDB call in section 2 (default 50)
  --throughput-delay MS
                    delay added to each DynamoDB call of service, empty service
                    and bare client in the throughput comparison, an in-region
                    round trip (default 5)
  --connections N   connections / bare-client loops of the throughput
                    comparison (default 1: one request at a time, as a Lambda
                    container serves them)
  --runs N          throughput runs of service, empty service and bare client
                    per workload, interleaved (default 20: a ratio of one
                    run against its neighbour varies by ±8 % here, and the
                    median of 10 moved by 0.03 between two runs of the bench)
  --duration S      seconds per throughput run (default 1)
  --warmup S        warm-up seconds before the first throughput run of each
                    (default 10: the JIT needs 8-10 s to settle on the SDK here)
  --instructions-requests N1,N2
                    requests of the two valgrind processes compared per mode
                    (default ${DEFAULT_INSTRUCTION_REQUESTS.join(',')}; 100,300 is faster and reads high)
  --cold-runs N     fresh Node processes loading the bundle (default 20)
  --quick           shorter everything: --samples 3 --runs 5 --warmup 5
                    --cold-runs 8 --instructions-requests 100,300
  --profile         profile the service even when the throughput targets are
                    met (by default only when one is missed)
  --skip PHASE      leave out ${PHASES.join(', ')} (repeatable)
  --out FILE        where to write the report (default bench/results.md)`;

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseCommandLine(argv, {
    samples: { type: 'string' },
    delay: { type: 'string' },
    connections: { type: 'string' },
    'throughput-delay': { type: 'string' },
    duration: { type: 'string' },
    warmup: { type: 'string' },
    runs: { type: 'string' },
    'instructions-requests': { type: 'string' },
    'cold-runs': { type: 'string' },
    quick: { type: 'boolean' },
    profile: { type: 'boolean' },
    skip: { type: 'string', multiple: true },
    out: { type: 'string' },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const skip = new Set<Phase>();
  for (const phase of values.skip ?? []) {
    if (!(PHASES as readonly string[]).includes(phase)) throw new UsageError(`--skip takes one of ${PHASES.join(', ')}, got "${phase}"`);
    skip.add(phase as Phase);
  }
  const quick = values.quick === true;
  const samples = positiveIntArg('--samples', values.samples, 1000) ?? (quick ? 3 : 6);
  const delayMs = positiveIntArg('--delay', values.delay, 5000) ?? 50;
  const throughputDelayMs = positiveIntArg('--throughput-delay', values['throughput-delay'], 1000) ?? 5;
  const connections = positiveIntArg('--connections', values.connections, 1000) ?? 1;
  const durationS = positiveIntArg('--duration', values.duration, 3600) ?? 1;
  const warmupS = positiveIntArg('--warmup', values.warmup, 600) ?? (quick ? 5 : 10);
  const runs = positiveIntArg('--runs', values.runs, 1000) ?? (quick ? 5 : 20);
  const coldRuns = positiveIntArg('--cold-runs', values['cold-runs'], 1000) ?? (quick ? 8 : 20);
  let instructionRequests: [number, number];
  try {
    instructionRequests = requestsArg('--instructions-requests', values['instructions-requests']) ?? (quick ? [100, 300] : DEFAULT_INSTRUCTION_REQUESTS);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const out = resolve(values.out ?? `${PROJECT_ROOT}/bench/results.md`);
  const say = (line: string) => process.stderr.write(`${line}\n`);

  const started = performance.now();
  say('starting the store …');
  const store = await openBenchStore();
  // Ctrl-C: DynamoDB Local runs in its own process group, so stop it before leaving.
  const interrupted = () => {
    say('interrupted: stopping DynamoDB Local …');
    void store.close().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  const machine = describeMachine(store.description);
  let roundTrips: BenchReport['roundTrips'];
  let coldStart: ColdStartResult | undefined;
  let throughput: ThroughputResult | undefined;
  let instructions: BenchReport['instructions'];
  let profile: BenchReport['profile'];
  try {
    if (!skip.has('rounds')) {
      say(`1-2. DynamoDB calls, rounds and latency: ${SHAPES.length} shapes × ${samples} samples, without and with +${delayMs} ms per call …`);
      const measured = await startContainer(store, { record: true });
      const other = await startContainer(store, { record: false });
      let results: ShapeResult[];
      try {
        const world = { store, measured, other };
        // One unrecorded pass first: module loading and JIT would otherwise land on the first shapes.
        await measureRoundTrips(world, SHAPES, { samples: 1, delayMs: 1 });
        results = await measureRoundTrips(world, SHAPES, { samples, delayMs, onProgress: say });
      } finally {
        await measured.close();
        await other.close();
      }
      roundTrips = { results, delayMs, samples };
    }

    if (!skip.has('cold')) {
      say(`4. cold start: cdk synth, then the bundle loaded in ${coldRuns} fresh processes …`);
      coldStart = await measureColdStart({ runs: coldRuns });
      say(`  ${coldStart.bytes} bytes, median init ${median(coldStart.initMs).toFixed(1)} ms`);
    }

    const functionEnvironment = coldStart?.environment ?? {};
    if (!skip.has('throughput')) {
      say(
        `3. throughput: ${connections} connection(s), ${runs} interleaved ${durationS} s runs of service, empty service and bare client per workload, +${throughputDelayMs} ms on every DynamoDB call …`,
      );
      throughput = await measureThroughput(store, { connections, delayMs: throughputDelayMs, durationS, warmupS, runs, functionEnvironment, onProgress: say });
    }

    if (!skip.has('instructions')) {
      if (hasValgrind()) {
        say(`3b. instructions per request under valgrind (${instructionRequests.join(' and ')} requests per process; target ≤ ${INSTRUCTIONS_TARGET}) …`);
        instructions = await countInstructions(store, { shapes: ['upsert', 'get'], requests: instructionRequests, onProgress: say });
      } else {
        instructions = { skipped: 'valgrind is not on PATH (Debian: apt-get install valgrind)' };
        say(`3b. instructions: ${instructions.skipped}`);
      }
    }

    const missed = throughput?.rows.some((row) => median(row.ratios) < SERVICE_VS_EMPTY_TARGET) ?? false;
    if (!skip.has('profile') && (missed || values.profile === true)) {
      say('3c. profiling the service and the handler (V8 CPU profiler, after a warm-up; not counted above) …');
      const files = await profileService(store, { connections: 8, durationS, warmupS, functionEnvironment });
      profile = {
        service: summarizeProfiles([readProfile(files.service)]),
        handler: summarizeProfiles(files.handler.map(readProfile)),
      };
      say(`  profiles: ${[files.service, ...files.handler].join(', ')}`);
    }
  } finally {
    await store.close();
  }

  const command = ['npm run bench', ...(argv.length > 0 ? ['--', ...argv] : [])].join(' ');
  const report: BenchReport = {
    command,
    machine: finishMachine(machine),
    seconds: (performance.now() - started) / 1000,
    roundTrips,
    throughput,
    instructions,
    profile,
    coldStart,
    browserSdk: { ...(await measureScript()), budgetBytes: GZIP_BUDGET_BYTES },
    cost: { roundTripMs: 5, fallbackCpuMs: 1 },
  };
  const text = renderReport(report);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text);
  process.stdout.write(`${text}\n`);
  say(`written to ${relative(process.cwd(), out) || out}`);
});
