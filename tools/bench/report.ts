import { coldStartMedian, type ColdStartResult } from './cold-start';
import { assumedLambdaMs, costPerMillion, PRICES_NOTE, US_EAST_1_PRICES } from './cost';
import type { InstructionResult } from './instruction-count';
import type { Machine } from './machine';
import type { ProfileSummary } from './profile';
import type { ShapeResult, Spread } from './round-trips';
import type { Target } from './shapes';
import { median } from './stats';
import type { ThroughputResult } from './throughput';

/** Everything one `npm run bench` measured. */
export interface BenchReport {
  command: string;
  machine: Machine;
  seconds: number;
  roundTrips?: { results: ShapeResult[]; delayMs: number; samples: number };
  /** Latency-bound: an in-region delay on every DynamoDB call, one request at a time per connection. */
  throughput?: ThroughputResult;
  /** Instructions per request under valgrind, or why they were not counted. */
  instructions?: InstructionResult | { skipped: string };
  /** V8 CPU profiles: the service process (HTTP + handler) and the handler called in-process. */
  profile?: { service: ProfileSummary; handler: ProfileSummary };
  coldStart?: ColdStartResult;
  /** The browser SDK's one-file build (npm run sdk:size), minified and gzipped. */
  browserSdk?: { bytes: number; gzipBytes: number; budgetBytes: number };
  /** Assumptions of the cost section. */
  cost: { roundTripMs: number; fallbackCpuMs: number };
}

/** The contacts API asset's budget, bytes (bench/asset-sizes.md). */
export const BUNDLE_LIMIT_BYTES = 250_000;
/**
 * The ingest asset's budget, the request path's as the contacts asset's: its scrubbing rules, the source-map
 * resolver (trace-mapping) and the Sentry protocol ride on top of the API, and fit since the assets reach DynamoDB
 * through the lean client (bench/asset-sizes.md).
 */
export const INGEST_BUNDLE_LIMIT_BYTES = 250_000;
/** The service against the same calls behind the same adapter with nothing else (the empty service). */
export const SERVICE_VS_EMPTY_TARGET = 0.95;
/** The handler's instructions against the bare client's for the same calls. */
export const INSTRUCTIONS_TARGET = 1.1;

const verdict = (pass: boolean | undefined) => (pass === undefined ? '—' : pass ? 'PASS' : '**FAIL**');
const int = (value: number) => Math.round(value).toLocaleString('en-US');
const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '—');
const usd = (value: number) => `$${value.toFixed(value < 1 ? 3 : 2)}`;
const range = (spread: Spread) => (spread.min === spread.max ? String(spread.mode) : `${spread.mode} (${spread.min}–${spread.max})`);

function table(headers: string[], rows: string[][], align: ('l' | 'r')[] = []): string {
  const rule = headers.map((_, index) => (align[index] === 'r' ? '---:' : '---'));
  return [headers, rule, ...rows].map((cells) => `| ${cells.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`).join('\n');
}

function machineLine(machine: Machine): string {
  const load = machine.loadAtEnd === undefined ? fixed(machine.loadAtStart, 1) : `${fixed(machine.loadAtStart, 1)} → ${fixed(machine.loadAtEnd, 1)}`;
  return [
    `- CPU: ${machine.cpuModel}, ${machine.cores} cores; memory ${machine.memoryGb} GB; load average (1 min) ${load}`,
    `- Node.js ${machine.node}; ${machine.dynamodb}`,
    `- date: ${machine.date}`,
  ].join('\n');
}

interface TargetRow {
  text: string;
  shapes: string[];
  measured: Set<string>;
  pass: boolean;
}

function targetRows(report: BenchReport): string[][] {
  const rows: string[][] = [];
  const byTarget = new Map<Target, TargetRow>();
  for (const result of report.roundTrips?.results ?? []) {
    const worst = { calls: result.calls.max, keyCalls: result.keyCalls.max, rounds: result.rounds.max };
    for (const target of result.shape.targets) {
      const row = byTarget.get(target) ?? { text: target.text, shapes: [], measured: new Set<string>(), pass: true };
      row.shapes.push(result.shape.id);
      row.measured.add(target.measured(worst));
      row.pass &&= target.met(worst);
      byTarget.set(target, row);
    }
  }
  for (const row of byTarget.values()) {
    rows.push([row.text, `${row.shapes.length} shapes`, [...row.measured].join('; '), verdict(row.pass)]);
  }
  if (report.coldStart) {
    rows.push([
      `bundle under ${int(BUNDLE_LIMIT_BYTES)} bytes`,
      'API asset',
      `${int(report.coldStart.bytes)} bytes`,
      verdict(report.coldStart.bytes < BUNDLE_LIMIT_BYTES),
    ]);
  }
  if (report.browserSdk) {
    const sdk = report.browserSdk;
    rows.push([
      `browser SDK under ${int(sdk.budgetBytes)} bytes gzipped`,
      'one-file build',
      `${int(sdk.gzipBytes)} bytes (bench/sdk-size.md)`,
      verdict(sdk.gzipBytes <= sdk.budgetBytes),
    ]);
  }
  const tp = report.throughput;
  if (tp) {
    const { delayMs, connections } = tp.options;
    for (const row of tp.rows) {
      const ratio = median(row.ratios);
      rows.push([
        `throughput service ÷ empty service ≥ ${SERVICE_VS_EMPTY_TARGET} (+${delayMs} ms per DynamoDB call, ${connections} connection${connections === 1 ? '' : 's'})`,
        row.label,
        fixed(ratio, 3),
        verdict(ratio >= SERVICE_VS_EMPTY_TARGET),
      ]);
    }
  }
  const counted = report.instructions;
  if (counted && 'counts' in counted) {
    for (const count of counted.counts) {
      const ratio = count.handler / count.bare;
      rows.push([
        `instructions handler ÷ bare client ≤ ${fixed(INSTRUCTIONS_TARGET, 2)} (valgrind)`,
        count.label,
        fixed(ratio, 3),
        verdict(ratio <= INSTRUCTIONS_TARGET),
      ]);
    }
  } else if (counted) {
    rows.push([
      `instructions handler ÷ bare client ≤ ${fixed(INSTRUCTIONS_TARGET, 2)} (valgrind)`,
      'upsert, GET by id',
      `not counted: ${counted.skipped}`,
      '—',
    ]);
  }
  if (tp) {
    for (const row of tp.rows) {
      rows.push([
        '(for reading the above) empty service ÷ bare client: what HTTP alone costs on this machine',
        row.label,
        fixed(median(row.emptyRatios), 2),
        '—',
      ]);
    }
  }
  return rows;
}

function roundTripsSection(report: BenchReport): string {
  const trips = report.roundTrips;
  if (!trips) return '';
  const rows = trips.results.map((result) => [
    result.shape.group,
    result.shape.label,
    result.shape.key,
    String(result.shape.status),
    range(result.calls),
    range(result.keyCalls),
    range(result.rounds),
    range(result.waited),
    result.sequence,
    String(result.readUnits),
    String(result.writeUnits),
    result.shape.targets.map((target) => target.text.replace(/^.*?: /, '')).join('; ') || '(documented exception)',
    verdict(result.met),
  ]);
  const discarded = trips.results.filter((result) => result.discarded > 0);
  const discardedNote =
    discarded.length === 0
      ? ''
      : `\nSamples left out for an unexpected status (a minute rolling over between a shape's preparation and its request, say): ${discarded.map((result) => `${result.shape.id} ${result.discarded}`).join(', ')}.\n`;
  return `## 1. DynamoDB calls and sequential rounds per request

Counted, not written down: an SDK middleware the benchmark installs on the
client it passes to \`createContactsHandler\` (built like the Lambda entry point:
one client, one contact store, one key authorizer per container) records
every call of each request. A call *waited* when it was sent only after an
earlier call of the same request had answered; *rounds* is the longest chain
of such calls. ${trips.samples} samples per shape without delay and ${trips.samples} with
${trips.delayMs} ms added to each call (rounds come from those); a range shows when
samples differed. *cold*: the first request of the key in this container;
*warm*: a later one. Units: DynamoDB's own ConsumedCapacity; a write whose
condition was refused (no ConsumedCapacity in the answer) is counted by the
size of the stored item, at least 1 WRU, as DynamoDB bills it.

${table(['group', 'shape', 'key', 'status', 'calls', 'key calls', 'rounds', 'waited', 'calls by round', 'RRU', 'WRU', 'target', 'result'], rows, [
  'l',
  'l',
  'l',
  'r',
  'r',
  'r',
  'r',
  'r',
  'l',
  'r',
  'r',
  'l',
  'l',
])}
${discardedNote}`;
}

function latencySection(report: BenchReport): string {
  const trips = report.roundTrips;
  if (!trips) return '';
  const d = trips.delayMs;
  const rows = trips.results
    .filter((result) => result.calls.max > 0)
    .map((result) => {
      const outside = (result.p50msDelayed - result.p50ms) / d;
      return [
        result.shape.label,
        result.shape.key,
        String(result.rounds.mode),
        fixed(result.p50ms),
        fixed(result.p50msDelayed),
        fixed(result.p50msDelayed / d, 2),
        fixed(outside, 2),
        Math.round(outside) === result.rounds.mode ? 'yes' : 'no',
      ];
    });
  return `## 2. Latency in rounds

The same requests from outside (HTTP, one at a time), without and with
D = ${d} ms added to every DynamoDB call. p50 / D counts the rounds plus the
request's own time; (p50 with D − p50 without) / D is the number of
sequential rounds seen from outside, and should match the counted one.

${table(['shape', 'key', 'rounds counted', 'p50 ms', `p50 ms, +${d} ms/call`, 'p50 / D', '(p50_D − p50_0) / D', 'matches'], rows, [
  'l',
  'l',
  'r',
  'r',
  'r',
  'r',
  'r',
  'l',
])}
`;
}

function profileTables(profile: ProfileSummary): string {
  const lines = (entries: { name: string; ms: number; share: number }[]) =>
    entries.map((entry) => [entry.name, fixed(entry.ms, 0), `${fixed(entry.share * 100, 1)} %`]);
  return `Busy ${fixed(profile.busyMs, 0)} ms, idle ${fixed(profile.idleMs, 0)} ms.

${table(['charged to', 'ms', 'share of busy'], lines(profile.byOwnerFamily), ['l', 'r', 'r'])}

${table(['package or folder', 'ms', 'share of busy'], lines(profile.byOwner), ['l', 'r', 'r'])}

${table(['function (self time)', 'ms', 'share of busy'], lines(profile.topFunctions), ['l', 'r', 'r'])}`;
}

function profileSection(profile: BenchReport['profile']): string {
  if (!profile) return '';
  return `## 3c. Where the service's time goes

V8 CPU profiles (the profiler \`--cpu-prof\` uses), taken after a warm-up in
separate runs not counted above. Each sample is charged to the nearest
package or project file on its stack (a socket write the SDK makes counts
for the SDK; the benchmark's own counters are transparent); "no package on
the stack" is Node's own work (parsing HTTP, flushing sockets, the event loop).

**The service process** (local HTTP adapter + handler, both workloads):
${profileTables(profile.service)}

**The handler called in-process** (what runs inside a Lambda; both workloads;
every socket of this process is the SDK's, so its "no package on the stack"
time is almost all the SDK's requests being flushed and answers read):
${profileTables(profile.handler)}
`;
}

/** Ratios per run: the median, with the range of the runs in brackets. */
const ratioRange = (ratios: number[], digits = 2) =>
  `${fixed(median(ratios), digits)} (${fixed(Math.min(...ratios), digits)}–${fixed(Math.max(...ratios), digits)})`;
const percent = (share: number) => `${fixed(share * 100, 0)} %`;

function comparisonTable(result: ThroughputResult): string {
  const delay = result.options.delayMs;
  const rows = result.rows.map((row) => [
    row.label,
    fixed(median(row.service.rps), 0),
    fixed(median(row.empty.rps), 0),
    fixed(median(row.bare.rps), 0),
    ratioRange(row.ratios, 3),
    ratioRange(row.emptyRatios),
    `${fixed(row.service.p50ms, 0)} / ${fixed(row.service.p99ms, 0)}`,
    `${fixed(row.empty.p50ms, 0)} / ${fixed(row.empty.p99ms, 0)}`,
    `${fixed(row.bare.p50ms, 0)} / ${fixed(row.bare.p99ms, 0)}`,
    String(row.bareRounds * delay),
    `${percent(row.service.machineBusy)} / ${percent(row.bare.machineBusy)}`,
    verdict(median(row.ratios) >= SERVICE_VS_EMPTY_TARGET),
  ]);
  return table(
    [
      'workload',
      'service req/s',
      'empty service req/s',
      'bare req/s',
      'service ÷ empty',
      'empty ÷ bare',
      'service p50 / p99 ms',
      'empty p50 / p99 ms',
      'bare p50 / p99 ms',
      `floor: rounds × ${delay} ms`,
      'machine CPU busy, service / bare runs',
      `target ≥ ${SERVICE_VS_EMPTY_TARGET}`,
    ],
    rows,
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
  );
}

function problemsOf(result: ThroughputResult): string[] {
  return result.rows.flatMap((row) => [
    ...row.service.problems.map((problem) => `- ${row.label}, service: ${problem}`),
    ...row.empty.problems.map((problem) => `- ${row.label}, empty service: ${problem}`),
    ...row.bare.problems.map((problem) => `- ${row.label}, bare: ${problem}`),
  ]);
}

/** ms with its sign, for a difference that noise can make negative. */
const signedMs = (ms: number) => (ms >= 0 ? `+${fixed(ms, 2)} ms` : `−${fixed(-ms, 2)} ms (noise: within the runs' spread)`);

/**
 * Where the time per request goes, in this run's medians: the bare client's
 * time, what HTTP alone adds (the empty service), and what the service adds
 * on top of that (its handler: Middy, validation, logs, metrics).
 */
function latencySplit(result: ThroughputResult): string {
  const perRequest = (rps: number[]) => (result.options.connections * 1000) / median(rps);
  const lines = result.rows.map((row) => {
    const bare = perRequest(row.bare.rps);
    const empty = perRequest(row.empty.rps);
    const service = perRequest(row.service.rps);
    return `- ${row.label}: ${fixed(bare, 2)} ms per request for the bare client, ${signedMs(empty - bare)} for HTTP alone (the empty service), ${signedMs(service - empty)} more for the service.`;
  });
  return `**Where the time goes** (time per request = connections / req/s, medians):

${lines.join('\n')}`;
}

function throughputSection(report: BenchReport): string {
  const tp = report.throughput;
  if (!tp) return '';
  const { runs, durationS, warmupS, delayMs, connections } = tp.options;
  const problems = problemsOf(tp);
  return `## 3. Throughput: the service against the empty service

Three ways to serve the same workload with the same concurrency, each in its
own process, run from an esbuild bundle as the Lambda asset is (no
TypeScript loader): ${runs} runs of ${durationS} s each per workload, interleaved in a rotating
order (service, empty service, bare; empty service, bare, service; …) after a
${warmupS} s warm-up of each (the SDK's CPU per call keeps falling for the first
8–10 s of a process), so that load from other jobs on the machine hits all
three alike. Ratios are taken per run against the run next to it; the median
is shown, with the range of the runs in brackets.

- **service**: autocannon against the Lambda entry point
  (\`lambda/contacts/api/contacts-entry.ts\`, with the function's environment: logs and
  metrics on, written to /dev/null) behind the local HTTP adapter;
- **empty service**: the same autocannon against the same local HTTP adapter
  answering with the bare client's calls and nothing else
  (tools/bench/empty-service.ts): no Middy, no key parsing, validation, logs
  or metrics. The target: the service keeps at least ${SERVICE_VS_EMPTY_TARGET} of its throughput;
- **bare**: the same DynamoDB calls made with the service's own store classes
  (same commands, tables and item shapes) from as many loops, nothing around
  them: the floor, for reading the others.

With ${delayMs} ms added to every DynamoDB call of all three (an in-region round trip;
tools/bench/delay.ts, installed from outside on each side's SDK client) and
${connections} connection${connections === 1 ? '' : 's'}${connections === 1 ? ': one request at a time, as a Lambda container serves them' : ''}. Without a delay, DynamoDB Local
shares this machine's cores with the service and the ratio only measures CPU
per request, which the instruction counts (section 3b) measure exactly.
*floor*: no request can take less than its sequential rounds × the delay.
*machine CPU busy*: the share of all cores' time busy during the runs, every
process counted (other jobs too).

${comparisonTable(tp)}

${latencySplit(tp)}

CPU time of the serving process per request (this machine): ${tp.rows
    .map(
      (row) =>
        `${row.label}: service ${fixed(row.service.cpuMsPerRequest, 2)} ms (+${fixed(row.service.loadGeneratorCpuMsPerRequest, 2)} ms in autocannon), bare client ${fixed(row.bare.cpuMsPerRequest, 2)} ms`,
    )
    .join('; ')}.

Calls per request of the bare client, as recorded by the same middleware:
${tp.rows.map((row) => `${row.label}: ${row.bareSequence} (${row.bareRounds} round${row.bareRounds === 1 ? '' : 's'})`).join('; ')}.
${problems.length > 0 ? `\nProblems seen:\n${problems.join('\n')}\n` : ''}`;
}

/** The instruction counts as a Markdown table, with the target. */
export function instructionTable(result: InstructionResult): string {
  const m = (n: number) => `${(n / 1e6).toFixed(2)} M`;
  return table(
    ['shape', 'bare client', 'handler', 'handler − bare', 'handler ÷ bare', `target ≤ ${fixed(INSTRUCTIONS_TARGET, 2)}`],
    result.counts.map((c) => [
      c.label,
      m(c.bare),
      m(c.handler),
      m(c.handler - c.bare),
      fixed(c.handler / c.bare, 3),
      verdict(c.handler / c.bare <= INSTRUCTIONS_TARGET),
    ]),
    ['l', 'r', 'r', 'r', 'r', 'l'],
  );
}

function instructionsSection(report: BenchReport): string {
  const counted = report.instructions;
  if (!counted) return '';
  if (!('counts' in counted))
    return `## 3b. Instructions per request

Not counted: ${counted.skipped}.
`;
  const [n1, n2] = counted.requests;
  return `## 3b. Instructions per request

The bare client's calls and the Lambda handler making the same calls (fed
the API Gateway event of the same HTTP request, logs and metrics on, written
to /dev/null), each counted by valgrind (cachegrind, no cache simulation) in
two processes of ${n1} and ${n2} requests; the figure is the difference over the
${n2 - n1} requests between them, so start-up and warm-up cancel out, as
long as the first process is past the JIT's warm-up (under valgrind that
takes over a thousand requests: at 600 and 1,800 the bare client's upsert
read 5.82 M per request, at 1,800 and 3,000 4.55 M). Both from the same
esbuild bundle (no TypeScript loader). Node
${counted.node}. Counts do not depend on what else runs on the machine and
repeat within a few percent (JIT and GC timing still vary). What the handler
adds is its own work: Middy, the key hash and check around the call,
routing, validation, the response, the log line and the metrics.

${instructionTable(counted)}
`;
}

function coldStartSection(report: BenchReport): string {
  const cold = report.coldStart;
  if (!cold) return '';
  const m = coldStartMedian(cold);
  const total = cold.bytes;
  const share = (bytes: number) => `${fixed((bytes / total) * 100, 1)} %`;
  const env = Object.keys(cold.environment).join(', ');
  return `## 4. Cold start

The project's own \`cdk synth\` (bin/contacts.ts) into a temporary folder
(${fixed(cold.synthSeconds, 0)} s); the API function's asset found through the template's
\`Code.S3Key\` and the assets manifest: \`${cold.assetFile}\`.

${table(
  ['', 'value', 'target', 'result'],
  [
    ['bundle (index.mjs, minified)', `${int(cold.bytes)} bytes`, `< ${int(BUNDLE_LIMIT_BYTES)} bytes`, verdict(cold.bytes < BUNDLE_LIMIT_BYTES)],
    ['source map', cold.sourceMapBytes > 0 ? `${int(cold.sourceMapBytes)} bytes (not counted)` : 'none', '', ''],
    [`module initialisation, median of ${cold.initMs.length} fresh processes`, `${fixed(m.initMs)} ms (p10 ${fixed(m.p10)}, p90 ${fixed(m.p90)})`, '', ''],
    ['process start → bundle loaded, median', `${fixed(m.sinceProcessStartMs)} ms`, '', ''],
  ],
  ['l', 'r', 'l', 'l'],
)}

Each run: \`node init.mjs\` in a folder holding only a copy of the asset (no
node_modules in reach) timing \`await import('./index.mjs')\`, with the
function's environment from the template (${env}; table names stand in for
the references), AWS_REGION, fake credentials and the Lambda runtime's
variables. Node ${report.machine.node} here; Lambda runs Node.js 22 at
${cold.memoryMb} MB, where the time will differ.

What the bundle holds: an esbuild metafile of a rebuild with the stack's
own bundling options (lib/service-function.ts), ${cold.breakdown.identical ? '**byte-identical** to the asset' : `**not** byte-identical to the asset (${int(cold.breakdown.rebuiltBytes)} bytes)`}${cold.breakdown.notReproduced.length > 0 ? `; options not reproduced: ${cold.breakdown.notReproduced.join(', ')}` : ''}.

${table(
  ['family', 'bytes', 'share'],
  cold.breakdown.families.map((row) => [row.name, int(row.bytes), share(row.bytes)]),
  ['l', 'r', 'r'],
)}

${table(
  ['package or folder', 'bytes', 'share'],
  cold.breakdown.byPackage.slice(0, 15).map((row) => [row.name, int(row.bytes), share(row.bytes)]),
  ['l', 'r', 'r'],
)}
`;
}

function costSection(report: BenchReport): string {
  const trips = report.roundTrips;
  if (!trips) return '';
  const memoryMb = report.coldStart?.memoryMb ?? 1024;
  // CPU per request of the service process (HTTP adapter included, one request at a time: on the high side).
  const tp = report.throughput?.rows;
  const cpuOf = (like: 'upsert' | 'get') => tp?.find((row) => row.shape === like)?.service.cpuMsPerRequest ?? report.cost.fallbackCpuMs;
  const logBytes = median(tp?.map((row) => row.service.stdoutBytesPerRequest) ?? [0]);
  const p = US_EAST_1_PRICES;
  const rows = trips.results.map((result) => {
    const lambdaMs = assumedLambdaMs(result.rounds.mode, cpuOf(result.shape.like), { roundTripMs: report.cost.roundTripMs, memoryMb });
    const cost = costPerMillion({ readUnits: result.readUnits, writeUnits: result.writeUnits, lambdaMs, lambdaMemoryMb: memoryMb, logBytes });
    return [
      result.shape.label,
      result.shape.key,
      String(result.calls.mode),
      String(result.readUnits),
      String(result.writeUnits),
      String(lambdaMs),
      usd(cost.apiGateway),
      usd(cost.lambda),
      usd(cost.dynamo),
      usd(cost.logs),
      `**${usd(cost.total)}**`,
    ];
  });
  const cpuNote = tp
    ? `the service's CPU time per request measured in section 3 (upsert ${fixed(cpuOf('upsert'), 2)} ms, GET ${fixed(cpuOf('get'), 2)} ms on this machine, HTTP adapter included, so on the high side; the GET figure stands for the error paths), divided by the CPU share of ${memoryMb} MB (${fixed(Math.min(1, memoryMb / 1769) * 100, 0)} % of a vCPU)`
    : `an assumed ${report.cost.fallbackCpuMs} ms of CPU per request (throughput not measured in this run)`;
  return `## 5. Cost on paper

Per million requests of each shape, from the units measured in section 1.
Lambda duration assumed = rounds × ${report.cost.roundTripMs} ms (an in-region DynamoDB
round trip from Lambda on a kept-alive connection; DynamoDB answers
single-item calls in single-digit ms) + ${cpuNote}, rounded up to the ms
Lambda bills. Logs: ${
    tp
      ? `${int(logBytes)} bytes per request written to stdout (the request log line
and the EMF metrics, measured in section 3), ingested by CloudWatch Logs`
      : 'not measured in this run (section 3 skipped)'
  }.
Not included: data transfer out, CloudWatch metrics extracted from EMF,
storage, free tiers.

Prices used: API Gateway REST ${usd(p.apiGatewayRestPerMillion)} per million requests;
Lambda ${usd(p.lambdaRequestsPerMillion)} per million requests + $${p.lambdaArmPerGbSecond} per GB-s (arm64);
DynamoDB on demand ${usd(p.dynamoWritePerMillionUnits)} per million WRU, ${usd(p.dynamoReadPerMillionUnits)} per million RRU;
CloudWatch Logs ingestion ${usd(p.logsIngestionPerGb)} per GB. ${PRICES_NOTE}

${table(['shape', 'key', 'calls', 'RRU', 'WRU', 'Lambda ms', 'API Gateway', 'Lambda', 'DynamoDB', 'logs', 'total / million'], rows, [
  'l',
  'l',
  'r',
  'r',
  'r',
  'r',
  'r',
  'r',
  'r',
  'r',
  'r',
])}
`;
}

/** The whole report, Markdown: printed, and written to bench/results.md. */
export function renderReport(report: BenchReport): string {
  return `# Performance benchmark

Produced by \`${report.command}\` in ${fixed(report.seconds, 0)} s.

${machineLine(report.machine)}

Shared machines are noisy: compare ratios and counts, not absolute times
across runs. No test asserts a time.

## Targets

${table(['target', 'measured on', 'measured (worst sample; ratios: median of the runs)', 'result'], targetRows(report))}

${roundTripsSection(report)}
${latencySection(report)}
${throughputSection(report)}
${instructionsSection(report)}
${profileSection(report.profile)}
${coldStartSection(report)}
${costSection(report)}`.replace(/\n{3,}/g, '\n\n');
}
