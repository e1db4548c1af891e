/**
 * npm run bench:storm -- --sessions: a session storm on one release's hour (docs/capacity.md#the-session-storm).
 * Browser pages each a session of their own (Sentry `session` updates: start, an error, an end, some sent twice)
 * and servers' minute aggregates (`sessions` items), all of one release in one hour, from many addresses and
 * users, against `npm start` on the semantics proxy (tools/semantics) with a per-partition write ceiling scaled
 * down (20 write units a second by default, a 1:50 model), offered 10 times that in session updates a second.
 * Reports what was sent, acknowledged and lost, the 5xx, the counters against what was acknowledged, the
 * distinct-user estimate against the users, and the write units the sessions added per session update: what the
 * ride adds to the visitors' limiter items past their first unit, and the tally's counter writes. Writes
 * bench/session-storm-results.md.
 */
import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { distinctCount } from '../../lambda/kernel/distinct-sketch';
import { createDynamoClient, documentClientOf, LOCAL_DYNAMO_CONFIG } from '../../lambda/infrastructure/store/dynamo-client';
import { KeyAdmin } from '../../lambda/infrastructure/store/keys/key-admin';
import { DynamoReleaseReader } from '../../lambda/infrastructure/store/reports/release-reader';
import { LOCAL_TABLE_NAMES } from '../../lambda/infrastructure/store/schema';
import { dsnFor } from '../../lambda/ingest/sentry/dsn';
import { startDynamoDbLocal } from '../../local/harness/dynamodb-local';
import { PROJECT_ROOT } from '../../local/harness/paths';
import { freePort } from '../../local/harness/ports';
import type { StatsSnapshot } from '../semantics/stats';
import { envelopeUrlOf } from '../storm/sentry-page';
import { sendAsTheSdk } from '../storm/sdk-retry';
import { envelopeOf, expectedOf, judgeCounters, seeded, STATUSES, stormTraffic, zero, type Counters, type StormRequest } from '../storm/session-traffic';
import { describeMachine, finishMachine } from './machine';
import { percentile } from './stats';
import { postFrom, startChild, stopChild, visitorAddress } from './served';
import { proxyCall } from '../storm/proxy-stats';

export interface SessionStormSettings {
  ceiling: number;
  /** Session updates (requests) a second offered. */
  rate: number;
  durationS: number;
  /** Distinct users among the pages. */
  users: number;
  settleS: number;
  concurrency: number;
  seed: number;
}

const SITE = 'https://shop.example.com';
const RELEASE = 'shop@7.3.0';
const CLIENT_TIMEOUT_MS = 30_000;
/** Requests a page sends on average (stormTraffic: a start, 0.2 errors, 0.9 ends, 10 % sent twice): pages start at rate / this. */
const REQUESTS_PER_PAGE = 2.3;
const PAGES_PER_AGGREGATE = 20;

/** Where the write units went, by the partitions written (release-items.ts, schema.ts). */
const KINDS = {
  limiters: `table=${LOCAL_TABLE_NAMES.reports}&index=&prefix=limit%23`,
  tally: `table=${LOCAL_TABLE_NAMES.reports}&prefix=release%23&prefix=relh%23&prefix=relu%23&prefix=fach%23&prefix=crep%23`,
  releaseHour: `table=${LOCAL_TABLE_NAMES.reports}&index=&prefix=relh%23`,
} as const;

export interface SessionStormResult {
  requests: number;
  acknowledged: number;
  notAcknowledged: number;
  answers: Record<string, number>;
  serverErrors: number;
  bare429: number;
  counted: Counters;
  expected: { acknowledged: Counters; sent: Counters; users: number };
  verdict: { lost: number; extra: number; exact: boolean };
  usersEstimate: number | undefined;
  exactAfterS?: number;
  tryLatency: { p50: number; p99: number };
  limiter: { writes: number; units: number; throttles: number };
  tally: { writes: number; units: number; throttles: number };
  releaseHour: { writes: number; units: number; throttles: number };
  throttles: number;
}

/** One session storm against npm start on the semantics proxy. */
export async function runSessionStorm(settings: SessionStormSettings): Promise<SessionStormResult> {
  const say = (line: string) => process.stderr.write(`[sessions] ${line}\n`);
  const dynamo = await startDynamoDbLocal({ port: await freePort() });
  const children: ChildProcess[] = [];
  const raw = documentClientOf(createDynamoClient({ ...LOCAL_DYNAMO_CONFIG, requestTimeoutMs: 30_000, endpoint: dynamo.endpoint }));
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'ERROR', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
    const proxy = startChild(
      process.execPath,
      ['--import', 'tsx', 'tools/semantics/main.ts', '--target', dynamo.endpoint, '--ceiling', String(settings.ceiling), '--port', '0'],
      { cwd: PROJECT_ROOT, env, ready: /DYNAMODB_ENDPOINT=(\S+)/, timeoutMs: 60_000 },
    );
    children.push(proxy.child);
    const proxyEndpoint = (await proxy.ready)[1] as string;
    const { S3_ENDPOINT: _unused, ...startEnv } = env;
    const server = startChild(process.execPath, ['--import', 'tsx', 'local/harness/commands/start.ts'], {
      cwd: PROJECT_ROOT,
      env: {
        ...startEnv,
        DYNAMODB_ENDPOINT: proxyEndpoint,
        PORT: String(await freePort()),
        CONTACTS_DATA_DIR: mkdtempSync(join(tmpdir(), 'session-storm-data-')),
        CONTACTS_SERVERS_DIR: mkdtempSync(join(tmpdir(), 'session-storm-servers-')),
        CONTACTS_STREAMS: 'on',
        LOCAL_CONCURRENCY: String(settings.concurrency),
      },
      ready: /Contacts API listening on (http:\/\/localhost:\d+)/,
      timeoutMs: 120_000,
    });
    children.push(server.child);
    const baseUrl = ((await server.ready)[1] as string).replace('localhost', '127.0.0.1');
    const doc = documentClientOf(createDynamoClient({ ...LOCAL_DYNAMO_CONFIG, endpoint: proxyEndpoint }));
    const factoryId = `fac_sessions_${randomUUID().slice(0, 8)}`;
    const { key, keyId } = await new KeyAdmin(doc, LOCAL_TABLE_NAMES.keys).create({ factoryId, type: 'publishable', origins: [SITE], rateLimit: 1_000_000 });
    const url = envelopeUrlOf(dsnFor(baseUrl, key, keyId));
    await proxyCall(proxyEndpoint, 'POST', '/__semantics/reset');

    const pageCount = Math.round((settings.rate * settings.durationS) / REQUESTS_PER_PAGE);
    const hourMs = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    const traffic = stormTraffic({
      pages: pageCount,
      users: settings.users,
      pagesPerAggregate: PAGES_PER_AGGREGATE,
      release: RELEASE,
      hourMs,
      random: seeded(settings.seed),
    });
    say(
      `${pageCount} pages and ${traffic.servers.length} aggregates at ${settings.rate} session updates/s for ${settings.durationS} s, ceiling ${settings.ceiling} WCU/s`,
    );

    /** Every try: a try not answered in time may still have landed, and an aggregate counts once per write that landed. */
    const tried: StormRequest[] = [];
    let requests = 0;
    const acknowledged: StormRequest[] = [];
    const answers: Record<string, number> = {};
    const latencies: number[] = [];
    let bare429 = 0;
    const send = async (request: StormRequest): Promise<void> => {
      requests += 1;
      const body = envelopeOf(request.item);
      const outcome = await sendAsTheSdk(async () => {
        tried.push(request);
        const answer = await postFrom(
          url,
          { Origin: SITE, 'Content-Type': 'text/plain;charset=UTF-8' },
          body,
          visitorAddress(request.sender),
          CLIENT_TIMEOUT_MS,
        );
        answers[answer.status === undefined ? 'no answer' : String(answer.status)] = (answers[String(answer.status ?? 'no answer')] ?? 0) + 1;
        if (answer.status === 429 && !answer.retryAfter) bare429 += 1;
        latencies.push(answer.ms);
        return { status: answer.status, retryAfter: answer.retryAfter, value: answer };
      });
      if (outcome.delivered) acknowledged.push(request);
    };
    const started = performance.now();
    const at = (offsetMs: number) => new Promise((resolvePromise) => setTimeout(resolvePromise, Math.max(0, started + offsetMs - performance.now())));
    const pagePeriod = (settings.durationS * 1000) / Math.max(1, pageCount);
    const serverPeriod = (settings.durationS * 1000) / Math.max(1, traffic.servers.length);
    await Promise.all([
      ...traffic.pages.map(async (requests, i) => {
        await at(i * pagePeriod);
        for (const request of requests) await send(request);
      }),
      ...traffic.servers.map(async (request, i) => {
        await at(i * serverPeriod);
        await send(request);
      }),
    ]);
    const ended = performance.now();
    say(`sent ${requests} in ${Math.round((ended - started) / 1000)} s; waiting for the counters`);

    const expected = expectedOf(tried, acknowledged);
    const reader = new DynamoReleaseReader(raw, LOCAL_TABLE_NAMES.reports);
    const read = async () => (await reader.listReleases(factoryId, { limit: 5 })).releases.find((release) => release.release === RELEASE);
    let counted = zero();
    let exactSince: number | undefined;
    let stable = 0;
    let last = '';
    for (const deadline = ended + settings.settleS * 1000; performance.now() < deadline; ) {
      counted = (await read())?.counters ?? zero();
      const text = JSON.stringify(counted);
      stable = text === last ? stable + 1 : 0;
      last = text;
      if (judgeCounters(counted, expected).lost === 0) exactSince ??= performance.now();
      else exactSince = undefined;
      if (exactSince !== undefined && stable >= 4) break;
      await new Promise((resolvePromise) => setTimeout(resolvePromise, 500));
    }
    const record = await read();
    counted = record?.counters ?? zero();
    const statsOf = async (query: string) => {
      const { matched } = JSON.parse(await proxyCall(proxyEndpoint, 'GET', `/__semantics/stats?${query}&limit=0`)) as StatsSnapshot;
      return { writes: matched.writes, units: matched.units, throttles: matched.throttles };
    };
    const all = JSON.parse(await proxyCall(proxyEndpoint, 'GET', '/__semantics/stats?limit=0')) as StatsSnapshot;
    const pct = (q: number) => Math.round(percentile(latencies, q));
    return {
      requests,
      acknowledged: acknowledged.length,
      notAcknowledged: requests - acknowledged.length,
      answers,
      serverErrors: Object.entries(answers)
        .filter(([status]) => status.startsWith('5'))
        .reduce((sum, [, n]) => sum + n, 0),
      bare429,
      counted,
      expected,
      verdict: judgeCounters(counted, expected),
      usersEstimate: record?.users ? distinctCount(record.users).count : undefined,
      ...(exactSince === undefined ? {} : { exactAfterS: Math.round((exactSince - ended) / 100) / 10 }),
      tryLatency: { p50: pct(0.5), p99: pct(0.99) },
      limiter: await statsOf(KINDS.limiters),
      tally: await statsOf(KINDS.tally),
      releaseHour: await statsOf(KINDS.releaseHour),
      throttles: Object.values(all.totals).reduce((sum, table) => sum + table.throttles, 0),
    };
  } finally {
    for (const child of children.reverse()) await stopChild(child);
    await dynamo.stop();
  }
}

const cell = (value: number | undefined) => (value === undefined ? '—' : value.toLocaleString('en-US'));
const counters = (c: Counters) => STATUSES.map((status) => `${status} ${cell(c[status])}`).join(', ');

/** The run as a section of bench/storm-results.md. */
export function sessionStormReport(settings: SessionStormSettings, machine: ReturnType<typeof finishMachine>, r: SessionStormResult): string {
  // Each landed limiter write of this storm carried one session update (or one aggregate): what the service wrote, tries included.
  const written = r.limiter.writes;
  const perUpdate = (units: number) => (written === 0 ? '—' : (units / written).toFixed(4));
  const ride = r.limiter.units - r.limiter.writes;
  const userError = r.usersEstimate === undefined || r.expected.users === 0 ? undefined : (r.usersEstimate - r.expected.users) / r.expected.users;
  const rows: [string, string][] = [
    ['session updates sent (one `session` update or one `sessions` aggregate an envelope)', cell(r.requests)],
    ['acknowledged (200) / not acknowledged after 4 tries', `${cell(r.acknowledged)} / ${cell(r.notAcknowledged)}`],
    [
      'answers by status',
      Object.entries(r.answers)
        .map(([status, n]) => `${status}: ${n}`)
        .join(', '),
    ],
    ['5xx answers / 429 without Retry-After', `${cell(r.serverErrors)} / ${cell(r.bare429)}`],
    ['counted', counters(r.counted)],
    ['expected from the acknowledged updates (at least)', counters(r.expected.acknowledged)],
    ['expected from every try (at most: a try unanswered may have landed, and an aggregate counts per landed write)', counters(r.expected.sent)],
    [
      '**statuses lost after acknowledgement** / counted twice',
      `${cell(r.verdict.lost)} / ${cell(r.verdict.extra)}${r.verdict.exact ? ' (exact)' : ' (**not exact**)'}`,
    ],
    ['counters exact (and staying so) after the storm (s)', r.exactAfterS === undefined ? '—' : String(r.exactAfterS)],
    [
      'distinct users: estimate / users of the acknowledged updates',
      `${cell(r.usersEstimate)} / ${cell(r.expected.users)}${userError === undefined ? '' : ` (${(userError * 100).toFixed(2)} %)`}`,
    ],
    ['latency per try p50 / p99 (ms)', `${cell(r.tryLatency.p50)} / ${cell(r.tryLatency.p99)}`],
    ["visitors' limiter items: writes, units, throttles", `${cell(r.limiter.writes)}, ${cell(r.limiter.units)}, ${cell(r.limiter.throttles)}`],
    ["the tally's release items: writes, units, throttles", `${cell(r.tally.writes)}, ${cell(r.tally.units)}, ${cell(r.tally.throttles)}`],
    [
      'of which the release-hour item (the hot key): writes, units, throttles',
      `${cell(r.releaseHour.writes)}, ${cell(r.releaseHour.units)}, ${cell(r.releaseHour.throttles)}`,
    ],
    ['session updates written (landed limiter writes, tries included)', cell(written)],
    ['**write units sessions add per session update written**', perUpdate(ride + r.tally.units)],
    ['of which the ride (limiter units past the first per write) / the tally', `${perUpdate(ride)} / ${perUpdate(r.tally.units)}`],
    ['throttled writes (all tables)', cell(r.throttles)],
  ];
  return [
    `## Session storm: ${settings.rate} session updates/s into one release's hour for ${settings.durationS} s, ceiling ${settings.ceiling} WCU/s per partition`,
    '',
    `Measured ${machine.date} on ${machine.cores} × ${machine.cpuModel}, Node ${machine.node}, DynamoDB Local ${machine.dynamodb}; 1-minute load average ${machine.loadAtStart.toFixed(1)} at the start, ${machine.loadAtEnd?.toFixed(1)} at the end. Command: \`npm run bench:storm -- --sessions --rate ${settings.rate} --duration ${settings.durationS} --users ${settings.users} --ceiling ${settings.ceiling} --seed ${settings.seed}\` (npm start with ${settings.concurrency} handler calls at once).`,
    '',
    '| | |',
    '|---|---|',
    ...rows.map(([label, value]) => `| ${label} | ${value} |`),
    '',
  ].join('\n');
}

/** Runs the storm and writes its section (appended to `out` when asked). */
export async function sessionStormCommand(settings: SessionStormSettings, out: string, append: boolean, dynamodbVersion: string): Promise<void> {
  const machine = describeMachine(dynamodbVersion);
  const result = await runSessionStorm(settings);
  const text = sessionStormReport(settings, finishMachine(machine), result);
  process.stdout.write(`${text}\n`);
  if (append && existsSync(out)) appendFileSync(out, `\n${text}`);
  else
    writeFileSync(
      out,
      `# Session storm benchmark\n\nWritten by \`npm run bench:storm -- --sessions\` (tools/bench/session-storm.ts); see docs/capacity.md#the-session-storm.\n\n${text}`,
    );
  process.stderr.write(`wrote ${relative(process.cwd(), out)}\n`);
}
