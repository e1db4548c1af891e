/**
 * npm run bench:ingest: the ingest API's DynamoDB calls and sequential rounds
 * per request shape (counted by the same SDK middleware as `npm run bench`,
 * on the client handed to the handler: nothing of it is in the handler), and
 * the throughput of `POST /ingest/v1/events` under autocannon. Starts an
 * in-memory DynamoDB Local (or uses DYNAMODB_ENDPOINT), issues its own keys,
 * prints a report and writes it to bench/ingest-results.md.
 */
import './env';
import autocannon from 'autocannon';
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { createIngestHandler } from '../../lambda/ingest/api/routes';
import type { ApiHandler } from '../../lambda/infrastructure/http/pipeline';
import { ingestDynamoDependencies } from '../../lambda/ingest/api/ingest-wiring';
import { createDynamoClient, DEFAULT_DYNAMO_CONFIG, documentClientOf } from '../../lambda/infrastructure/store/dynamo-client';
import { DynamoIssueStore } from '../../lambda/infrastructure/store/reports/dynamo-issue-store';
import { incomingMessageOf, lambdaContext, toProxyEvent } from '../../local/harness/http-adapter';
import { parseCommandLine, positiveIntArg, runCommand, UsageError } from '../../local/harness/cli';
import { PROJECT_ROOT } from '../../local/harness/paths';
import { startReportStreams } from '../../local/harness/streams/report-streams';
import { CallRecorder, type RequestTrace } from './counting';
import { installDelay } from './delay';
import { describeMachine, finishMachine } from './machine';
import { sequenceOf } from './round-trips';
import { sequentialRounds } from './rounds';
import { benchFactoryId, openBenchStore, type BenchStore } from './store';

const USAGE = `usage: npm run bench:ingest [-- options]

The ingest API: DynamoDB calls and sequential rounds per request shape, then
requests per second of POST /ingest/v1/events under autocannon (the host in a
process of its own on the local HTTP adapter, DynamoDB Local on this machine),
with the events of each request spread over 1, 5 and 20 issues.

  --samples N       requests per shape, without and with the delay (default 4)
  --delay MS        delay added to each DynamoDB call to tell rounds apart (default 30)
  --events N        events per request in the throughput run (default 20)
  --connections N   autocannon connections (default 8)
  --duration S      seconds of the measured run (default 10), after a 5 s warm-up
  --out FILE        where to write the report (default bench/ingest-results.md)`;

const SITE = 'https://shop.example.com';
const EVENTS = '/ingest/v1/events';

interface IngestRequest {
  method: string;
  target: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * `count` events spread over `fingerprints` issues (docs/report-issues.md):
 * event i throws in function f<i mod fingerprints>, so its stack groups it.
 */
const events = (count: number, ids?: string[], fingerprints = 1) =>
  JSON.stringify({
    events: Array.from({ length: count }, (_, i) => ({
      eventId: ids?.[i] ?? randomUUID(),
      type: 'error',
      message: 'TypeError: x is undefined',
      exception: {
        type: 'TypeError',
        value: 'x is undefined',
        stack: `TypeError: x is undefined\n    at f${i % fingerprints} (${SITE}/assets/app.3f9a1c.js:1:2)\n${'    at g (https://shop.example.com/assets/app.3f9a1c.js:1:2)\n'.repeat(19)}`,
      },
      pageUrl: 'https://shop.example.com/checkout',
      release: 'web@1.4.2',
      tags: { plan: 'pro' },
    })),
  });

/** Fingerprints per 20-event request in the issue rows and their throughput runs. */
const SPREADS = [1, 5, 20] as const;

/**
 * Before issues (commit deea7f6, bench/ingest-results.md of 2026-11-25T10:46Z):
 * one conditional PutItem per event, in parallel. A 20-event request, warm key.
 */
const BEFORE = { calls: 22, rounds: 2, eventsPerSecond: 722 } as const;

const post = (key: string, body: string, extra: Record<string, string> = {}): IngestRequest => ({
  method: 'POST',
  target: EVENTS,
  headers: { Origin: SITE, 'Content-Type': 'application/json', Authorization: `Bearer ${key}`, ...extra },
  body,
});

/** One in-process ingest container: the handler on a recorded, delayable client (one key cache, as a Lambda container). */
function container(store: BenchStore) {
  const client = createDynamoClient({ ...DEFAULT_DYNAMO_CONFIG, endpoint: store.endpoint });
  const recorder = new CallRecorder(store.tables);
  recorder.install(client, { consumedCapacity: true });
  const delay = { ms: 0 };
  installDelay(client, delay);
  const handler: ApiHandler = createIngestHandler(ingestDynamoDependencies(documentClientOf(client), store.tables));
  const send = async (request: IngestRequest) => {
    const id = randomUUID();
    const headers = Object.entries(request.headers).flat();
    const event = toProxyEvent(incomingMessageOf(request.method, request.target, headers), Buffer.from(request.body ?? ''), id);
    const { trace, result } = recorder.trace(() => handler(event, lambdaContext(id, 10_000)));
    const answer = await result;
    return { status: answer.statusCode, body: answer.body, trace };
  };
  return { send, delay, close: () => client.destroy() };
}

type Container = ReturnType<typeof container>;

interface IngestShape {
  label: string;
  status: number;
  /** Sends what the shape needs first (a warm key, a spent limit); returns the measured request. */
  prepare(world: { store: BenchStore; measured: Container }): Promise<IngestRequest>;
}

const publishable = async (store: BenchStore, rateLimit?: number) =>
  (await store.keys.create({ factoryId: benchFactoryId('ingest'), type: 'publishable', origins: [SITE], rateLimit })).key;

async function warmedTenant(world: { store: BenchStore; measured: Container }): Promise<{ key: string; factoryId: string }> {
  const factoryId = benchFactoryId('ingest');
  const { key } = await world.store.keys.create({ factoryId, type: 'publishable', origins: [SITE] });
  const answer = await world.measured.send(post(key, events(1)));
  if (answer.status !== 202) throw new Error(`warming a key answered ${answer.status}: ${answer.body}`);
  return { key, factoryId };
}

const warmed = async (world: { store: BenchStore; measured: Container }): Promise<string> => (await warmedTenant(world)).key;

const SHAPES: IngestShape[] = [
  { label: 'OPTIONS preflight (no key lookup)', status: 204, prepare: async () => ({ method: 'OPTIONS', target: EVENTS, headers: { Origin: SITE } }) },
  {
    label: 'refused before the key (415, 413, no key, malformed key)',
    status: 415,
    prepare: async ({ store }) => post(await publishable(store), events(1), { 'Content-Type': 'application/xml' }),
  },
  { label: 'events ×1, key new to the container', status: 202, prepare: async ({ store }) => post(await publishable(store), events(1)) },
  { label: 'events ×1, warm key', status: 202, prepare: async (world) => post(await warmed(world), events(1)) },
  { label: 'events ×20, key new to the container', status: 202, prepare: async ({ store }) => post(await publishable(store), events(20)) },
  { label: 'events ×20, warm key', status: 202, prepare: async (world) => post(await warmed(world), events(20)) },
  ...SPREADS.filter((spread) => spread > 1).map((spread) => ({
    label: `events ×20 over ${spread} fingerprints, warm key`,
    status: 202,
    prepare: async (world: { store: BenchStore; measured: Container }) => post(await warmed(world), events(20, undefined, spread)),
  })),
  {
    label: 'events ×20, 10 of them stored before (a partial retry), warm key',
    status: 202,
    prepare: async (world) => {
      const key = await warmed(world);
      const ids = Array.from({ length: 20 }, () => randomUUID());
      await world.measured.send(post(key, events(10, ids.slice(0, 10))));
      return post(key, events(20, ids));
    },
  },
  {
    label: 'events ×1 to a resolved issue (it reopens), warm key',
    status: 202,
    prepare: async (world) => {
      // The warming event opened the issue; resolved with the bench's own (uncounted) client.
      const { key, factoryId } = await warmedTenant(world);
      const issues = new DynamoIssueStore(world.store.doc, world.store.tables.reports);
      // The bench's tally (main, below) counts the warming event into its issue within a second or two.
      let [issue] = await issues.listIssues(factoryId, { limit: 1, nowMs: Date.now() });
      for (const deadline = Date.now() + 30_000; !issue && Date.now() < deadline; ) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        [issue] = await issues.listIssues(factoryId, { limit: 1, nowMs: Date.now() });
      }
      if (!issue) throw new Error('the warming event opened no issue within 30 s: is the tally running?');
      await issues.setIssueStatus(factoryId, issue.issueId, { status: 'resolved', at: new Date().toISOString(), by: 'bench', nowMs: Date.now() });
      return post(key, events(1));
    },
  },
  {
    label: 'events ×20, all duplicates (a retried request), warm key',
    status: 202,
    prepare: async (world) => {
      const key = await warmed(world);
      const ids = Array.from({ length: 20 }, () => randomUUID());
      await world.measured.send(post(key, events(20, ids)));
      return post(key, events(20, ids));
    },
  },
  {
    label: 'feature request, warm key',
    status: 201,
    prepare: async (world) => ({
      ...post(await warmed(world), JSON.stringify({ requestId: randomUUID(), title: 'Dark mode' })),
      target: '/ingest/v1/feature-requests',
    }),
  },
  {
    label: 'secret key (401, marked exposed)',
    status: 401,
    prepare: async ({ store }) => post((await store.keys.create({ factoryId: benchFactoryId('ingest'), type: 'secret' })).key, events(1)),
  },
  { label: 'unknown or revoked publishable key (401)', status: 401, prepare: async () => post(`dfpk_${'x'.repeat(43)}`, events(1)) },
  {
    label: 'origin not on the list (403), warm key',
    status: 403,
    prepare: async (world) => post(await warmed(world), events(1), { Origin: 'https://evil.example' }),
  },
  {
    label: 'per-key limit (429), key over it',
    status: 429,
    prepare: async ({ store, measured }) => {
      const key = await publishable(store, 1);
      await measured.send(post(key, events(1)));
      return post(key, events(1));
    },
  },
  {
    label: 'per-address limit (429), warm key',
    status: 429,
    prepare: async (world) => {
      const key = await warmed(world);
      // Requests the limiter counts but nothing is stored for (422), at once: on a loaded machine, the limit refills between slow ones.
      await Promise.all(Array.from({ length: 8 }, () => world.measured.send(post(key, JSON.stringify({ events: [] })))));
      return post(key, events(1));
    },
  },
];

interface ShapeRow {
  label: string;
  calls: number[];
  rounds: number[];
  sequence: string;
  units: { read: number; write: number };
  discarded: number;
}

/** `PutItem report ∥ PutItem report ∥ …` as `20 × PutItem report`. */
function compact(sequence: string): string {
  // A request without DynamoDB calls has no rounds to compact.
  if (!sequence.includes(': ')) return sequence;
  return sequence
    .split(' → ')
    .map((round) => {
      const [label, calls = ''] = round.split(': ');
      const counts = new Map<string, number>();
      for (const call of calls.split(' ∥ ')) counts.set(call, (counts.get(call) ?? 0) + 1);
      return `${label}: ${[...counts].map(([call, n]) => (n > 1 ? `${n} × ${call}` : call)).join(' ∥ ')}`;
    })
    .join(' → ');
}

const range = (values: number[]) => {
  const min = Math.min(...values);
  const max = Math.max(...values);
  return min === max ? String(min) : `${min}–${max}`;
};

async function measureShapes(store: BenchStore, samples: number, delayMs: number, say: (line: string) => void): Promise<ShapeRow[]> {
  const measured = container(store);
  const rows: ShapeRow[] = [];
  try {
    for (const shape of SHAPES) {
      const calls: number[] = [];
      const rounds: number[] = [];
      let sequence = '—';
      let units = { read: 0, write: 0 };
      let discarded = 0;
      for (let sample = 0; sample < samples * 2; sample += 1) {
        const withDelay = sample % 2 === 1;
        const request = await shape.prepare({ store, measured });
        measured.delay.ms = withDelay ? delayMs : 0;
        const answer = await measured.send(request).finally(() => {
          measured.delay.ms = 0;
        });
        if (answer.status !== shape.status) {
          discarded += 1;
          if (discarded > samples) throw new Error(`${shape.label}: expected ${shape.status}, got ${answer.status} ${answer.body}`);
          continue;
        }
        const trace: RequestTrace = answer.trace;
        calls.push(trace.calls.length);
        if (withDelay) {
          rounds.push(sequentialRounds(trace.calls).rounds);
          sequence = compact(sequenceOf(trace));
        } else {
          units = { read: 0, write: 0 };
          for (const call of trace.calls) {
            if (call.operation === 'GetItem') units.read += call.consumedUnits ?? 0;
            else units.write += call.consumedUnits ?? 1;
          }
        }
      }
      rows.push({ label: shape.label, calls, rounds, sequence, units, discarded });
      say(`  ${shape.label.padEnd(58)} ${range(calls).padStart(5)} calls ${range(rounds).padStart(3)} rounds`);
    }
  } finally {
    measured.close();
  }
  return rows;
}

interface Throughput {
  eventsPerRequest: number;
  /** Issues the events of one request are spread over. */
  fingerprints: number;
  connections: number;
  durationS: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
}

/** The host in its own process (tools/bench/ingest-serve.ts); resolves with its port. */
function startServer(store: BenchStore): Promise<{ port: number; stop(): void }> {
  const child = fork(join(__dirname, 'ingest-serve.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    env: {
      ...process.env,
      DYNAMODB_ENDPOINT: store.endpoint,
      KEYS_TABLE_NAME: store.tables.keys,
      REPORTS_TABLE_NAME: store.tables.reports,
      CONTACTS_TABLE_NAME: store.tables.contacts,
      LOG_LEVEL: 'SILENT',
      POWERTOOLS_METRICS_DISABLED: 'true',
    },
  });
  return new Promise((resolvePort, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const port = /listening (\d+)/.exec(out)?.[1];
      if (port) resolvePort({ port: Number(port), stop: () => child.kill('SIGTERM') });
    });
    child.once('exit', (code) => reject(new Error(`the ingest server exited (${code}) before listening`)));
  });
}

function cannon(port: number, key: string, count: number, connections: number, seconds: number, fingerprints = 1): Promise<autocannon.Result> {
  return autocannon({
    url: `http://127.0.0.1:${port}${EVENTS}`,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        headers: { Origin: SITE, 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
        // Fresh eventIds for every request: each one stores its 20 events.
        setupRequest: (request) => ({ ...request, body: events(count, undefined, fingerprints) }),
      },
    ],
  });
}

async function measureThroughput(
  store: BenchStore,
  options: { events: number; connections: number; durationS: number; fingerprints: number },
): Promise<Throughput> {
  const server = await startServer(store);
  try {
    const key = await publishable(store, 1_000_000);
    await cannon(server.port, key, options.events, options.connections, 5, options.fingerprints);
    const result = await cannon(server.port, key, options.events, options.connections, options.durationS, options.fingerprints);
    const statuses: Record<string, number> = {};
    for (const [code, count] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = (count as { count: number }).count;
    return {
      eventsPerRequest: options.events,
      fingerprints: options.fingerprints,
      connections: options.connections,
      durationS: options.durationS,
      requestsPerSecond: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      statuses,
    };
  } finally {
    server.stop();
  }
}

/** The row of the 20-event shape spread over `spread` fingerprints. */
const spreadRow = (rows: ShapeRow[], spread: number) =>
  rows.find((row) => row.label === (spread === 1 ? 'events ×20, warm key' : `events ×20 over ${spread} fingerprints, warm key`));

function render(command: string, machine: ReturnType<typeof describeMachine>, rows: ShapeRow[], delayMs: number, runs: Throughput[]): string {
  const [first] = runs as [Throughput];
  const lines = [
    '# Ingest API: DynamoDB calls per request, and throughput',
    '',
    `Command: \`${command}\`, ${machine.date}: ${machine.cores} × ${machine.cpuModel}, ${machine.memoryGb} GB, Node ${machine.node}, ${machine.dynamodb}; 1-minute load average ${machine.loadAtStart.toFixed(2)} at the start, ${(machine.loadAtEnd ?? 0).toFixed(2)} at the end.`,
    '',
    `## DynamoDB calls and sequential rounds per request (rounds measured with +${delayMs} ms per call)`,
    '',
    '| request | calls | rounds | write units (reported) | sequence |',
    '|---|---:|---:|---:|---|',
    ...rows.map((row) => `| ${row.label} | ${range(row.calls)} | ${range(row.rounds)} | ${row.units.write} | ${row.sequence} |`),
    '',
    'Write units are what DynamoDB Local reported for the table (a transaction reports twice the units of its items);',
    'each event also writes one entry of the `byFeed` index and one of `byIssue` (under 1 KB: 1 WCU each), each issue',
    'written moves its `byFeed` entry (2 index writes), and a condition refused (a duplicate) still costs its write units.',
    '',
    '## A 20-event request spread over 1, 5 and 20 issues (docs/report-issues.md), beside the figures before issues',
    '',
    `Before: one conditional PutItem per event, in parallel (${BEFORE.calls} calls, ${BEFORE.rounds} rounds, ${BEFORE.eventsPerSecond} events/s on this`,
    'machine, bench/ingest-results.md of 2026-11-25T10:46Z). After: the events and one update per issue in one TransactWriteItems.',
    '',
    '| fingerprints in the request | calls (before → after) | rounds (before → after) | items in the transaction | events/s (before → after) | p50 ms | p99 ms | statuses |',
    '|---:|---:|---:|---:|---:|---:|---:|---|',
    ...runs.map((run) => {
      const row = spreadRow(rows, run.fingerprints);
      const eventsPerSecond = (run.requestsPerSecond * run.eventsPerRequest).toFixed(0);
      return `| ${run.fingerprints} | ${BEFORE.calls} → ${row ? range(row.calls) : '?'} | ${BEFORE.rounds} → ${row ? range(row.rounds) : '?'} | ${run.eventsPerRequest + run.fingerprints} | ${BEFORE.eventsPerSecond} → ${eventsPerSecond} | ${run.p50} | ${run.p99} | ${Object.entries(
        run.statuses,
      )
        .map(([c, n]) => `${c}×${n}`)
        .join(' ')} |`;
    }),
    '',
    `## POST /ingest/v1/events with ${first.eventsPerRequest} events, autocannon`,
    '',
    `${first.connections} connections, ${first.durationS} s after a 5 s warm-up per run, the host in its own process on the local`,
    "HTTP adapter, DynamoDB Local on the same 2 cores (CPU-bound here: absolute numbers are this machine's).",
    '',
    '| fingerprints | requests/s | events/s | p50 ms | p99 ms | statuses |',
    '|---:|---:|---:|---:|---:|---|',
    ...runs.map(
      (run) =>
        `| ${run.fingerprints} | ${run.requestsPerSecond.toFixed(1)} | ${(run.requestsPerSecond * run.eventsPerRequest).toFixed(0)} | ${run.p50} | ${run.p99} | ${Object.entries(
          run.statuses,
        )
          .map(([c, n]) => `${c}×${n}`)
          .join(' ')} |`,
    ),
    '',
  ];
  return lines.join('\n');
}

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseCommandLine(argv, {
    samples: { type: 'string' },
    delay: { type: 'string' },
    events: { type: 'string' },
    connections: { type: 'string' },
    duration: { type: 'string' },
    out: { type: 'string' },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const samples = positiveIntArg('--samples', values.samples, 1000) ?? 4;
  const delayMs = positiveIntArg('--delay', values.delay, 5000) ?? 30;
  const count = positiveIntArg('--events', values.events, 20) ?? 20;
  const connections = positiveIntArg('--connections', values.connections, 1000) ?? 8;
  const durationS = positiveIntArg('--duration', values.duration, 3600) ?? 10;
  const out = resolve(values.out ?? `${PROJECT_ROOT}/bench/ingest-results.md`);
  const say = (line: string) => process.stderr.write(`${line}\n`);

  say('starting the store …');
  const store = await openBenchStore();
  // The tally on the store's stream, as npm start runs it (its calls are its own, not the measured container's).
  const streams = await startReportStreams({ endpoint: store.endpoint, say });
  const machine = describeMachine(store.description);
  let text: string;
  try {
    say(`DynamoDB calls and rounds: ${SHAPES.length} shapes × ${samples} samples, without and with +${delayMs} ms per call …`);
    await measureShapes(store, 1, 1, () => undefined);
    const rows = await measureShapes(store, samples, delayMs, say);
    const runs: Throughput[] = [];
    for (const fingerprints of SPREADS) {
      say(`throughput: POST ${EVENTS} with ${count} events over ${fingerprints} fingerprint(s), ${connections} connections, ${durationS} s …`);
      const throughput = await measureThroughput(store, { events: count, connections, durationS, fingerprints });
      say(`  ${throughput.requestsPerSecond.toFixed(1)} requests/s, p50 ${throughput.p50} ms, p99 ${throughput.p99} ms`);
      runs.push(throughput);
    }
    const command = ['npm run bench:ingest', ...(argv.length > 0 ? ['--', ...argv] : [])].join(' ');
    text = render(command, finishMachine(machine), rows, delayMs, runs);
  } finally {
    await streams?.stop();
    await store.close();
  }
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text);
  process.stdout.write(`${text}\n`);
  say(`written to ${relative(process.cwd(), out) || out}`);
});
