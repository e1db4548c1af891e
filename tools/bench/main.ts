/**
 * npm run bench: DynamoDB calls and rounds per request, latency in rounds,
 * throughput against a bare client (latency-bound, and CPU-bound on this
 * machine), cold start and bundle, cost on paper.
 * Starts what it needs (an in-memory DynamoDB Local unless DYNAMODB_ENDPOINT
 * is set), issues its own keys, prints the report and writes it to
 * bench/results.md. See the README's "Performance" section.
 */
import './env';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { parseCommandLine, positiveIntArg, runCommand, UsageError } from '../../local/cli';
import { PROJECT_ROOT } from '../../local/paths';
import { measureColdStart, type ColdStartResult } from './cold-start';
import { startContainer } from './container';
import { describeMachine, finishMachine } from './machine';
import { readProfile, summarizeProfiles } from './profile';
import { renderReport, THROUGHPUT_TARGET, type BenchReport, type ThroughputComparisons } from './report';
import { measureRoundTrips, type ShapeResult } from './round-trips';
import { SHAPES } from './shapes';
import { median } from './stats';
import { openBenchStore } from './store';
import { measureHttpHop, type HopResult } from './http-hop';
import { measureThroughput, profileService } from './throughput';

const PHASES = ['rounds', 'cold', 'throughput', 'profile'] as const;
type Phase = (typeof PHASES)[number];

const USAGE = `usage: npm run bench [-- options]

Measures the contacts API and prints a report (also written to bench/results.md):
DynamoDB calls and sequential rounds per request shape, latency with an
injected DynamoDB delay, throughput of the service against a bare client
making the same DynamoDB calls (twice: with an in-region network delay on
every DynamoDB call, which is what the target is judged on, and with none,
CPU-bound on this machine; beside them the handler called in-process and
the empty service: the same calls behind the same HTTP adapter, nothing else),
the Lambda bundle and its cold start, and the cost per million requests.
Runs on an in-memory DynamoDB Local it starts (or on DYNAMODB_ENDPOINT when
set). About 8 minutes with the defaults.

  --samples N       requests per shape, without and with the delay (default 6)
  --delay MS        delay added to each DynamoDB call in section 2 (default 50)
  --connections N   concurrent connections / bare-client loops of the
                    CPU-bound throughput comparison (default 8)
  --throughput-delay MS
                    delay added to each DynamoDB call of service, handler, empty service and
                    bare client in the latency-bound throughput comparison,
                    an in-region round trip (default 5)
  --latency-connections N
                    connections / loops of the latency-bound comparison
                    (default 1: one request at a time, as a Lambda container
                    serves them; more saturates this machine's CPU again)
  --runs N          throughput runs of service, handler, empty service and bare
                    client per workload and comparison, interleaved (default 10)
  --duration S      seconds per throughput run (default 1)
  --warmup S        warm-up seconds before the first throughput run of each
                    (default 10: the JIT needs 8-10 s to settle on the SDK here)
  --cold-runs N     fresh Node processes loading the bundle (default 20)
  --profile         profile the service even when the throughput target is met
                    (by default it is profiled only when a latency-bound
                    ratio is below ${THROUGHPUT_TARGET})
  --skip PHASE      leave out rounds, cold, throughput or profile (repeatable)
  --out FILE        where to write the report (default bench/results.md)`;

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseCommandLine(argv, {
    samples: { type: 'string' },
    delay: { type: 'string' },
    connections: { type: 'string' },
    'throughput-delay': { type: 'string' },
    'latency-connections': { type: 'string' },
    duration: { type: 'string' },
    warmup: { type: 'string' },
    runs: { type: 'string' },
    'cold-runs': { type: 'string' },
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
  const samples = positiveIntArg('--samples', values.samples, 1000) ?? 6;
  const delayMs = positiveIntArg('--delay', values.delay, 5000) ?? 50;
  const connections = positiveIntArg('--connections', values.connections, 1000) ?? 8;
  const throughputDelayMs = positiveIntArg('--throughput-delay', values['throughput-delay'], 1000) ?? 5;
  const latencyConnections = positiveIntArg('--latency-connections', values['latency-connections'], 1000) ?? 1;
  const durationS = positiveIntArg('--duration', values.duration, 3600) ?? 1;
  const warmupS = positiveIntArg('--warmup', values.warmup, 600) ?? 10;
  const runs = positiveIntArg('--runs', values.runs, 1000) ?? 10;
  const coldRuns = positiveIntArg('--cold-runs', values['cold-runs'], 1000) ?? 20;
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
  let throughput: ThroughputComparisons | undefined;
  let httpHop: HopResult[] | undefined;
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

    if (!skip.has('throughput')) {
      const common = {
        durationS,
        warmupS,
        runs,
        // The function's own environment (log level, service name) when the synth ran.
        functionEnvironment: coldStart?.environment ?? {},
        onProgress: say,
      };
      say(`3a. throughput, CPU-bound: ${connections} connections, ${runs} interleaved ${durationS} s runs of service, handler, empty service and bare client per workload …`);
      const cpuBound = await measureThroughput(store, { ...common, connections, delayMs: 0 });
      say(
        `3b. throughput, latency-bound: ${latencyConnections} connection(s), the same runs with +${throughputDelayMs} ms on every DynamoDB call of all four …`,
      );
      const latencyBound = await measureThroughput(store, { ...common, connections: latencyConnections, delayMs: throughputDelayMs });
      throughput = { cpuBound, latencyBound };
      say('  the cost of one empty HTTP request on this machine, with and without a wait behind it …');
      httpHop = await measureHttpHop();
      // The target is judged on the latency-bound comparison (see report.ts).
      const below = latencyBound.rows.some((row) => median(row.ratios) < THROUGHPUT_TARGET);
      if (!skip.has('profile') && (below || values.profile === true)) {
        say('  profiling the service and the handler (V8 CPU profiler, after a warm-up; not counted above) …');
        const files = await profileService(store, { connections, durationS, warmupS, functionEnvironment: coldStart?.environment ?? {} });
        profile = {
          service: summarizeProfiles([readProfile(files.service)]),
          handler: summarizeProfiles(files.handler.map(readProfile)),
        };
        say(`  profiles: ${[files.service, ...files.handler].join(', ')}`);
      }
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
    httpHop,
    profile,
    coldStart,
    cost: { roundTripMs: 5, fallbackCpuMs: 1 },
  };
  const text = renderReport(report);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text);
  process.stdout.write(`${text}\n`);
  say(`written to ${relative(process.cwd(), out) || out}`);
});
