/**
 * npm run bench:storm: an error storm on one issue (docs/capacity.md#the-storm-benchmark).
 * One bug reported by many visitors, each from an address of its own, each
 * page sending as the browser SDK sends (its retry rule, imported), at a
 * steady rate for a while, against `npm start` on DynamoDB as the service
 * behaves: the semantics proxy (tools/semantics) with a per-partition write
 * ceiling scaled down (5 write units a second by default, a 1:200 model of
 * the 1,000 of a partition, offered 10 times that), in front of a DynamoDB
 * Local of the benchmark's own. Reports
 * what was sent, accepted and lost, the 5xx answers, the issue's count
 * against the events stored and how long it took to get there, latencies,
 * DynamoDB calls and write units per stored event, throttles and conflicts;
 * and the same run on the design before (a git worktree of --baseline)
 * beside it. Writes bench/storm-results.md.
 */
import './env';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { createDynamoClient, documentClientOf, LOCAL_DYNAMO_CONFIG } from '../../lambda/store/dynamo-client';
import { KeyAdmin } from '../../lambda/store/keys/key-admin';
import { LOCAL_TABLE_NAMES } from '../../lambda/store/schema';
import { parseCommandLine, positiveIntArg, runCommand, UsageError } from '../../local/cli';
import { dynamoDbLocalVersion, startDynamoDbLocal, type DynamoDbLocal } from '../../local/dynamodb-local';
import { PROJECT_ROOT } from '../../local/paths';
import { freePort } from '../../local/ports';
import type { StatsSnapshot } from '../semantics/stats';
import { sendAsTheSdk, type TryAnswer } from '../storm/sdk-retry';
import { describeMachine, finishMachine, type Machine } from './machine';
import { percentile } from './stats';

const USAGE = `usage: npm run bench:storm [-- options]

An error storm on one issue: one bug reported by many visitors (an address
each), sent as the browser SDK sends (Retry-After waited out, 4 tries), to
npm start on the semantics proxy (a per-partition write ceiling scaled down),
then the same storm on the design of --baseline, for comparison.

  --ceiling N        write units a second per partition key (default 5: a 1:200 model)
  --rate N           events a second offered (default 50: 10x the ceiling)
  --duration S       seconds of the storm (default 60)
  --events N         events per request (default 1: each visitor's page sends its one error)
  --baseline REF     the git commit of the design to compare with (default ${'24ff828'}, before issue 29), or "none"
  --settle S         seconds to wait after the storm for the count to be exact (default 60)
  --concurrency N    handler calls at once in npm start (LOCAL_CONCURRENCY; default 64: Lambda adds containers)
  --out FILE         where to write the report (default bench/storm-results.md)
  --append           add this run's section to the report instead of starting it anew`;

const SITE = 'https://shop.example.com';
/**
 * The scale model by default: 1:200. On 2 cores, DynamoDB Local (one Java
 * process that writes one item at a time) serves about 100 ingest requests
 * a second through the semantics proxy, whichever design sends them; 10x a
 * ceiling of 5 (50 events a second) stays under that, so what the run
 * measures is the design, not the machine (docs/capacity.md#the-storm-benchmark).
 */
const DEFAULT_CEILING = 5;

/** The last commit of the design before issue 29: one transaction per request on the issue item. */
const DEFAULT_BASELINE = '24ff828';
/** A client gives up on an answer after this long, as API Gateway does at 29 s. */
const CLIENT_TIMEOUT_MS = 30_000;

interface Settings {
  ceiling: number;
  rate: number;
  durationS: number;
  eventsPerRequest: number;
  settleS: number;
  /** npm start's handler calls at once: on AWS, Lambda's containers. */
  concurrency: number;
}

interface RunResult {
  design: string;
  requests: number;
  eventsSent: number;
  eventsAcknowledged: number;
  /** Events of requests the SDK gave up on (never acknowledged). */
  eventsLost: number;
  answers: Record<string, number>;
  serverErrors: number;
  tries: number;
  /** Milliseconds per try (each answer), and from a page's first try to its acknowledgment. */
  tryLatency: { p50: number; p99: number };
  deliveryLatency: { p50: number; p99: number };
  stored: number;
  counted: number;
  /** Seconds after the last answer until the issue's count equalled the events stored (undefined: not within --settle). */
  exactAfterS?: number;
  calls: number;
  units: number;
  throttles: number;
  conflicts: number;
  hottest: { key: string; units: number; throttles: number }[];
}

/** Runs a child process until `ready` shows on its stdout; answers the match. */
function startChild(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; ready: RegExp; timeoutMs: number }) {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const ready = new Promise<RegExpMatchArray>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} not ready in ${options.timeoutMs} ms:\n${output.slice(-2000)}`)), options.timeoutMs);
    const look = (chunk: Buffer) => {
      output += chunk.toString();
      const match = options.ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolvePromise(match);
      }
    };
    child.stdout?.on('data', look);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited (${code}) before it was ready:\n${output.slice(-2000)}`));
    });
  });
  return { child, ready };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolvePromise) => child.on('exit', resolvePromise));
  process.kill(-(child.pid as number), 'SIGTERM');
  const timer = setTimeout(() => {
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {
      // gone
    }
  }, 15_000);
  await exited;
  clearTimeout(timer);
}

/** GET or POST on the proxy's stats endpoint. */
function proxyCall(endpoint: string, method: 'GET' | 'POST', path: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const req = httpRequest(`${endpoint}${path}`, { method }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolvePromise(body));
    });
    req.on('error', reject);
    req.end();
  });
}

/** One POST from a visitor's address; its status (undefined: no answer in time) and Retry-After. */
function post(baseUrl: string, key: string, body: string, localAddress: string): Promise<TryAnswer<number>> {
  const started = performance.now();
  return new Promise((resolvePromise) => {
    const req = httpRequest(
      `${baseUrl}/ingest/v1/events`,
      { method: 'POST', localAddress, agent: false, headers: { Origin: SITE, Authorization: `Bearer ${key}`, 'Content-Type': 'text/plain;charset=UTF-8', 'Content-Length': Buffer.byteLength(body) }, timeout: CLIENT_TIMEOUT_MS },
      (res) => {
        res.resume();
        res.on('end', () => resolvePromise({ status: res.statusCode, retryAfter: typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : null, value: performance.now() - started }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolvePromise({ status: undefined, retryAfter: null, value: performance.now() - started }));
    req.end(body);
  });
}

/** The i-th visitor's address on loopback: each a client of its own to the per-address limiter. */
const visitorAddress = (i: number): string => `127.${1 + (Math.floor(i / 62_500) % 254)}.${Math.floor(i / 250) % 250}.${1 + (i % 250)}`;

/** The storm's one bug: the same stack from any deploy. */
function stormEvent(): Record<string, unknown> {
  const hash = Math.floor(Math.random() * 0xefffffff + 0x10000000).toString(16);
  return {
    eventId: randomUUID(),
    message: 'TypeError: cart is undefined',
    exception: { type: 'TypeError', value: 'cart is undefined', stack: `TypeError: cart is undefined\n    at renderCart (${SITE}/assets/app.${hash}.js:120:7)\n    at main (${SITE}/assets/app.${hash}.js:310:1)` },
    release: 'web@4.2.0',
  };
}

/** Items of the reports table whose key begins with `prefix`, counted (a Scan of DynamoDB Local itself, past the proxy). */
async function countItems(doc: ReturnType<typeof documentClientOf>, prefix: string): Promise<{ count: number; items: Record<string, unknown>[] }> {
  let count = 0;
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(
      new ScanCommand({ TableName: LOCAL_TABLE_NAMES.reports, FilterExpression: 'begins_with(pk, :p)', ExpressionAttributeValues: { ':p': prefix }, ExclusiveStartKey: start }),
    );
    count += page.Count ?? 0;
    if (prefix.startsWith('issue#')) items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return { count, items };
}

/** One storm against the project in `root` (this one, or a worktree of the baseline). */
async function runStorm(design: string, root: string, settings: Settings): Promise<RunResult> {
  const say = (line: string) => process.stderr.write(`[${design}] ${line}\n`);
  const ddbPort = await freePort();
  const dynamo: DynamoDbLocal = await startDynamoDbLocal({ port: ddbPort });
  const children: ChildProcess[] = [];
  const rawClient = createDynamoClient({ ...LOCAL_DYNAMO_CONFIG, requestTimeoutMs: 30_000, endpoint: dynamo.endpoint });
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'ERROR', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
    const proxy = startChild(process.execPath, ['--import', 'tsx', 'tools/semantics/main.ts', '--target', dynamo.endpoint, '--ceiling', String(settings.ceiling), '--port', '0'], {
      cwd: PROJECT_ROOT,
      env,
      ready: /DYNAMODB_ENDPOINT=(\S+)/,
      timeoutMs: 60_000,
    });
    children.push(proxy.child);
    const proxyEndpoint = (await proxy.ready)[1] as string;
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'storm-data-'));
    const serversDir = mkdtempSync(join(tmpdir(), 'storm-servers-'));
    const server = startChild(process.execPath, ['--import', 'tsx', 'local/commands/start.ts'], {
      cwd: root,
      env: { ...env, DYNAMODB_ENDPOINT: proxyEndpoint, PORT: String(port), CONTACTS_DATA_DIR: dataDir, CONTACTS_SERVERS_DIR: serversDir, CONTACTS_STREAMS: 'on', LOCAL_CONCURRENCY: String(settings.concurrency) },
      ready: /Contacts API listening on (http:\/\/localhost:\d+)/,
      timeoutMs: 120_000,
    });
    children.push(server.child);
    const baseUrl = ((await server.ready)[1] as string).replace('localhost', '127.0.0.1');
    const doc = documentClientOf(createDynamoClient({ ...LOCAL_DYNAMO_CONFIG, endpoint: proxyEndpoint }));
    const factoryId = `fac_storm_${randomUUID().slice(0, 8)}`;
    const { key } = await new KeyAdmin(doc, LOCAL_TABLE_NAMES.keys).create({ factoryId, type: 'publishable', origins: [SITE], rateLimit: 1_000_000 });
    await proxyCall(proxyEndpoint, 'POST', '/__semantics/reset');
    say(`storm: ${settings.rate} events/s for ${settings.durationS}s, ${settings.eventsPerRequest} per request, ceiling ${settings.ceiling} WCU/s`);

    const requestsPerSecond = settings.rate / settings.eventsPerRequest;
    const total = Math.round(requestsPerSecond * settings.durationS);
    const tryLatencies: number[] = [];
    const deliveries: number[] = [];
    const answers: Record<string, number> = {};
    let acknowledged = 0;
    let lost = 0;
    let tries = 0;
    const started = performance.now();
    const pages: Promise<void>[] = [];
    for (let i = 0; i < total; i += 1) {
      // An open arrival schedule: the i-th page at its time, whatever the answers before it.
      const due = started + (i * 1000) / requestsPerSecond;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolvePromise) => setTimeout(resolvePromise, wait));
      const body = JSON.stringify({ events: Array.from({ length: settings.eventsPerRequest }, stormEvent) });
      const from = visitorAddress(i);
      const first = performance.now();
      pages.push(
        sendAsTheSdk(() => post(baseUrl, key, body, from)).then((outcome) => {
          for (const answer of outcome.answers) {
            tries += 1;
            tryLatencies.push(answer.value);
            const label = answer.status === undefined ? 'no answer' : String(answer.status);
            answers[label] = (answers[label] ?? 0) + 1;
          }
          if (outcome.delivered) {
            acknowledged += settings.eventsPerRequest;
            deliveries.push(performance.now() - first);
          } else lost += settings.eventsPerRequest;
        }),
      );
    }
    await Promise.all(pages);
    const ended = performance.now();
    say(`storm over after ${Math.round((ended - started) / 1000)} s; waiting for the count`);

    const raw = documentClientOf(rawClient);
    let exactAfterS: number | undefined;
    let stored = 0;
    let counted = 0;
    for (const deadline = ended + settings.settleS * 1000; ; ) {
      stored = (await countItems(raw, `event#${factoryId}#`)).count;
      const issues = (await countItems(raw, `issue#${factoryId}#`)).items;
      counted = issues.reduce((sum, item) => sum + Number(item.count ?? 0), 0);
      if (stored > 0 && counted === stored) {
        exactAfterS = Math.round((performance.now() - ended) / 100) / 10;
        break;
      }
      if (performance.now() > deadline) break;
      await new Promise((resolvePromise) => setTimeout(resolvePromise, 250));
    }
    const stats = JSON.parse(await proxyCall(proxyEndpoint, 'GET', '/__semantics/stats?limit=5')) as StatsSnapshot;
    const sum = (field: 'units' | 'throttles' | 'conflicts') => Object.values(stats.totals).reduce((total, table) => total + table[field], 0);
    const serverErrors = Object.entries(answers)
      .filter(([status]) => status.startsWith('5'))
      .reduce((total, [, n]) => total + n, 0);
    const pct = (values: number[], q: number) => Math.round(percentile(values, q));
    return {
      design,
      requests: total,
      eventsSent: total * settings.eventsPerRequest,
      eventsAcknowledged: acknowledged,
      eventsLost: lost,
      answers,
      serverErrors,
      tries,
      tryLatency: { p50: pct(tryLatencies, 0.5), p99: pct(tryLatencies, 0.99) },
      deliveryLatency: { p50: pct(deliveries, 0.5), p99: pct(deliveries, 0.99) },
      stored,
      counted,
      exactAfterS,
      calls: Object.values(stats.operations).reduce((total, operation) => total + operation.requests, 0),
      units: sum('units'),
      throttles: sum('throttles'),
      conflicts: sum('conflicts'),
      hottest: stats.partitions.map((partition) => ({ key: `${partition.index ? `${partition.index}:` : ''}${partition.key}`, units: partition.units, throttles: partition.throttles })),
    };
  } finally {
    for (const child of children.reverse()) await stopChild(child);
    rawClient.destroy();
    await dynamo.stop();
  }
}

/**
 * A worktree of `ref` beside this project, its node_modules this project's
 * (the baseline needs nothing this one lacks), its npm start given the same
 * handler calls at once as this design's (a design that predates
 * LOCAL_CONCURRENCY has the number in its adapter: edited there, in the
 * worktree only), so that both meet the storm with the same containers.
 */
function baselineTree(ref: string, concurrency: number): { root: string; remove: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'storm-baseline-'));
  rmSync(root, { recursive: true, force: true });
  const added = spawnSync('git', ['worktree', 'add', '--detach', root, ref], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  if (added.status !== 0) throw new UsageError(`--baseline ${ref}: git worktree add failed: ${added.stderr.trim()}`);
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(root, 'node_modules'));
  const adapter = join(root, 'local', 'http-adapter.ts');
  const text = readFileSync(adapter, 'utf8');
  if (!text.includes('LOCAL_CONCURRENCY')) writeFileSync(adapter, text.replace(/concurrency: \d+, maxWaiting/, `concurrency: ${concurrency}, maxWaiting`));
  return {
    root,
    remove: () => {
      spawnSync('git', ['worktree', 'remove', '--force', root], { cwd: PROJECT_ROOT });
      if (existsSync(root)) rmSync(root, { recursive: true, force: true });
    },
  };
}

const cell = (value: number | string | undefined) => (value === undefined ? '—' : typeof value === 'number' ? value.toLocaleString('en-US') : value);
const perEvent = (value: number, events: number) => (events === 0 ? '—' : (value / events).toFixed(2));

function report(settings: Settings, machine: Machine, runs: RunResult[]): string {
  const rows: [string, (run: RunResult) => string][] = [
    ['requests sent (pages)', (r) => cell(r.requests)],
    ['events sent', (r) => cell(r.eventsSent)],
    ['events acknowledged (2xx)', (r) => cell(r.eventsAcknowledged)],
    ['events lost after retries (the SDK gave up)', (r) => cell(r.eventsLost)],
    ['5xx answers', (r) => cell(r.serverErrors)],
    ['answers by status', (r) => Object.entries(r.answers).map(([status, n]) => `${status}: ${n}`).join(', ')],
    ['events stored / the issue\'s count', (r) => `${cell(r.stored)} / ${cell(r.counted)}`],
    ['count exact after the storm\'s end (s)', (r) => cell(r.exactAfterS)],
    ['latency per try p50 / p99 (ms)', (r) => `${cell(r.tryLatency.p50)} / ${cell(r.tryLatency.p99)}`],
    ['first try to acknowledgment p50 / p99 (ms)', (r) => `${cell(r.deliveryLatency.p50)} / ${cell(r.deliveryLatency.p99)}`],
    ['DynamoDB calls per stored event', (r) => perEvent(r.calls, r.stored)],
    ['write units per stored event', (r) => perEvent(r.units, r.stored)],
    ['throttled writes / conflicts', (r) => `${cell(r.throttles)} / ${cell(r.conflicts)}`],
    ['most charged partitions (units, throttles)', (r) => r.hottest.slice(0, 3).map((p) => `\`${p.key.slice(0, 48)}\` ${p.units}, ${p.throttles}`).join('; ')],
  ];
  const lines = [
    `## Storm: ${settings.rate} events/s on one issue for ${settings.durationS} s, ${settings.eventsPerRequest} event(s) a request, ceiling ${settings.ceiling} WCU/s per partition`,
    '',
    `Measured ${machine.date} on ${machine.cores} × ${machine.cpuModel}, Node ${machine.node}, DynamoDB Local ${machine.dynamodb}; 1-minute load average ${machine.loadAtStart.toFixed(1)} at the start, ${machine.loadAtEnd?.toFixed(1)} at the end. Command: \`npm run bench:storm -- --rate ${settings.rate} --duration ${settings.durationS} --events ${settings.eventsPerRequest} --ceiling ${settings.ceiling} --concurrency ${settings.concurrency}\` (npm start with ${settings.concurrency} handler calls at once).`,
    '',
    `| | ${runs.map((run) => run.design).join(' | ')} |`,
    `|---|${runs.map(() => '---').join('|')}|`,
    ...rows.map(([label, of]) => `| ${label} | ${runs.map(of).join(' | ')} |`),
    '',
  ];
  return lines.join('\n');
}

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseCommandLine(argv, {
    ceiling: { type: 'string' },
    rate: { type: 'string' },
    duration: { type: 'string' },
    events: { type: 'string' },
    baseline: { type: 'string' },
    settle: { type: 'string' },
    concurrency: { type: 'string' },
    out: { type: 'string' },
    append: { type: 'boolean' },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const settings: Settings = {
    ceiling: positiveIntArg('--ceiling', values.ceiling, 1_000) ?? DEFAULT_CEILING,
    rate: positiveIntArg('--rate', values.rate, 5_000) ?? DEFAULT_CEILING * 10,
    durationS: positiveIntArg('--duration', values.duration, 3_600) ?? 60,
    eventsPerRequest: positiveIntArg('--events', values.events, 20) ?? 1,
    settleS: positiveIntArg('--settle', values.settle, 3_600) ?? 60,
    concurrency: positiveIntArg('--concurrency', values.concurrency, 1_000) ?? 64,
  };
  const baseline = values.baseline ?? DEFAULT_BASELINE;
  const out = resolve(PROJECT_ROOT, values.out ?? 'bench/storm-results.md');
  const machine = describeMachine(dynamoDbLocalVersion());
  const runs = [await runStorm('this design', PROJECT_ROOT, settings)];
  if (baseline !== 'none') {
    const tree = baselineTree(baseline, settings.concurrency);
    try {
      runs.push(await runStorm(`before (${baseline})`, tree.root, settings));
    } finally {
      tree.remove();
    }
  }
  const text = report(settings, finishMachine(machine), runs);
  process.stdout.write(`${text}\n`);
  if (values.append === true && existsSync(out)) appendFileSync(out, `\n${text}`);
  else writeFileSync(out, `# Storm benchmark\n\nWritten by \`npm run bench:storm\` (tools/bench/storm.ts); see docs/capacity.md#the-storm-benchmark.\n\n${text}`);
  process.stderr.write(`wrote ${relative(process.cwd(), out)}\n`);
});
