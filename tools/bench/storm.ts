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
 * beside it. With --source-maps the pages run a real minified build whose
 * maps were uploaded first (their frames must come back resolved); with
 * --protocol sentry they report through Sentry's browser SDK (its envelope,
 * its transport, which drops on 429). Writes bench/storm-results.md.
 */
import './env';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { createDynamoClient, documentClientOf, LOCAL_DYNAMO_CONFIG } from '../../lambda/infrastructure/store/dynamo-client';
import { KeyAdmin } from '../../lambda/infrastructure/store/keys/key-admin';
import { LOCAL_TABLE_NAMES } from '../../lambda/infrastructure/store/schema';
import { storedEventOf } from '../../lambda/infrastructure/store/reports/event-items';
import { fingerprintHash, groupingCandidates } from '../../lambda/ingest/grouping/fingerprint';
import { parseCommandLine, positiveIntArg, runCommand, UsageError } from '../../local/harness/cli';
import { dynamoDbLocalVersion, startDynamoDbLocal, type DynamoDbLocal } from '../../local/harness/dynamodb-local';
import { PROJECT_ROOT } from '../../local/harness/paths';
import { freePort } from '../../local/harness/ports';
import { runUpload } from '../../browser-sdk/cli/commands';
import { dsnFor } from '../../lambda/ingest/sentry/dsn';
import type { StatsSnapshot } from '../semantics/stats';
import { buildStormApp, throwIn, type PageError } from '../storm/minified-app';
import { sendAsTheSdk, type TryAnswer } from '../storm/sdk-retry';
import { envelopeUrlOf, eventEnvelope, sentryBrowserEvent, sentryPage, type SentryOutcome } from '../storm/sentry-page';
import { checkStorm, type ScannedEvent, type ScannedIssue, type StormCheck } from '../storm/storm-check';
import { typicalError } from '../storm/typical-error';
import { describeMachine, finishMachine, type Machine } from './machine';
import { sessionStormCommand } from './session-storm';
import { commitOf, postFrom, startChild, stopChild, visitorAddress, worktreeOf } from './served';
import { percentile } from './stats';
import { proxyCall } from '../storm/proxy-stats';

const USAGE = `usage: npm run bench:storm [-- options]

An error storm on one issue: one bug reported by many visitors (an address
each), sent as the browser SDK sends (Retry-After waited out, 4 tries), to
npm start on the semantics proxy (a per-partition write ceiling scaled down),
then the same storm on the design of --baseline, for comparison.

  --ceiling N        write units a second per partition key (default 5: a 1:200 model)
  --rate N           events a second offered (default 50: 10x the ceiling)
  --duration S       seconds of the storm (default 60)
  --events N         events per request (default 1: each visitor's page sends its one error; own protocol only)
  --source-maps      the pages run a real minified app (two builds, names shifted) marked by sourcemaps inject,
                     whose maps are uploaded first (sourcemaps upload's code, to npm start's S3 store); after the
                     storm every stored event's frames must be resolved, and both builds one issue
  --protocol P       own (default): the browser SDK's requests to /ingest/v1/events, retried as it retries;
                     sentry: Sentry's browser SDK (11) with the key's DSN, one envelope per event, from pages on the
                     key's origin; the SDK drops an event answered 429 (never sent again), reported apart
  --mix              the event mix sites send: the pages take turns as own-SDK and Sentry-SDK pages, and as pages of
                     the mapped app (its maps uploaded first, as --source-maps) and of an unmapped one (the typical
                     5-frame error, no map): two bugs, each its own issue; a page reports --events errors, the own
                     SDK in one request, Sentry's SDK in an envelope each. Its defaults are issue 50's model:
                     --ceiling 20 --rate 200 --duration 30 --events 5; the report's first table gives its five
                     figures (lost, 5xx, exact counts, p99, write units per stored event) against the targets
  --key-limit N      the key's limit in requests a minute (default 1,000,000: no limit; each issue may take half)
  --other-rate N     events a second of a second bug on the same key during the storm (default 0): its share
  --baseline REF     the git commit of the design to compare with (default ${'24ff828'}, before issue 29), or
                     "none" (the default with --source-maps, --protocol sentry or --mix, which that design lacks;
                     name a later release for those, such as c1effd8, the release before issue 50)
  --warmup S         seconds of the same storm on a factory of its own first, not measured (default 30 with --mix,
                     otherwise 0): DynamoDB Local's JIT compiler and npm start's warm up, as DynamoDB and a storm's
                     Lambda containers need not (docs/capacity.md#warm-up); --warmup 0 measures a cold machine
  --settle S         seconds to wait after the storm for the count to be exact (default 60)
  --concurrency N    handler calls at once in npm start (LOCAL_CONCURRENCY; default 64: Lambda adds containers)
  --sessions         a session storm instead (docs/capacity.md#the-session-storm): Sentry \`session\` updates and
                     \`sessions\` aggregates into one release's hour, --rate session updates a second (default 200,
                     10x a ceiling of 20: the 1:50 model), --users distinct users (default 2,000), --seed N
  --out FILE         where to write the report (default bench/storm-results.md; with --sessions,
                     bench/session-storm-results.md)
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
/** What --mix runs unless told otherwise: issue 50's model (1:50, ten times a partition's ceiling, 5 events a page). */
const MIX_MODEL = { ceiling: 20, rate: 200, durationS: 30, eventsPerRequest: 5, warmupS: 30 };

/** The session storm's scale model: 1:50, 20 write units a second per partition (offered 10x that). */
const SESSION_CEILING = 20;

/** The last commit of the design before issue 29: one transaction per request on the issue item. */
const DEFAULT_BASELINE = '24ff828';
/** Polls (half a second apart) the events stored must stay the same before the counts are judged. */
const STABLE_POLLS = 4;

/** The set kept under `key`, made empty the first time. */
function setOf(sets: Map<string, Set<string>>, key: string): Set<string> {
  let set = sets.get(key);
  if (!set) sets.set(key, (set = new Set()));
  return set;
}

/**
 * What a storm's write units went to, by the partitions written (the proxy's stats filter, schema.ts's keys): each
 * event's own item, each visitor's limiter, the issue and key limits' leases, and the tally's per-batch writes.
 */
const WRITE_KINDS: Record<string, string> = {
  'event items': `table=${LOCAL_TABLE_NAMES.reports}&index=&prefix=event%23`,
  "visitors' limiters": `table=${LOCAL_TABLE_NAMES.reports}&index=&prefix=limit%23`,
  'issue limits': `table=${LOCAL_TABLE_NAMES.reports}&index=&prefix=ilimit%23`,
  'key leases and salts': `table=${LOCAL_TABLE_NAMES.keys}`,
  'the tally (issues, feed pages, aliases, their index entries)': `table=${LOCAL_TABLE_NAMES.reports}&prefix=issue%23&prefix=page%23&prefix=ipage%23&prefix=alias%23&prefix=filtered%23&prefix=fac_&prefix=iss_`,
};

/** --key-limit's default: a limit no storm reaches, so that only DynamoDB's ceilings answer. */
const NO_KEY_LIMIT = 1_000_000;

function protocolArg(value: string | undefined): Settings['protocol'] {
  if (value === undefined || value === 'own' || value === 'sentry') return value ?? 'own';
  throw new UsageError(`--protocol must be own or sentry, got "${value}"`);
}

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
  protocol: 'own' | 'sentry';
  sourceMaps: boolean;
  /** Pages alternate protocols and mapped or unmapped builds (--mix). */
  mix: boolean;
  /** The key's requests a minute. */
  keyLimit: number;
  /** Events a second of the second bug (0: none). */
  otherRate: number;
  /** Seconds of the same storm on a factory of its own before the measured one (0: none). */
  warmupS: number;
}

/** What one bug's pages met. */
interface BugResult {
  pages: number;
  eventsSent: number;
  /** Events answered 2xx. */
  acknowledged: number;
  /** Own SDK: events of requests it gave up on after its tries. Sentry SDK: by outcome (never sent again). */
  notAcknowledged: number;
  sentry?: Record<Exclude<SentryOutcome, 'acknowledged'>, number>;
  /** Of notAcknowledged, those the own SDK gave up on (the rest: the Sentry SDK's drops). */
  ownGaveUp?: number;
}

/** Several bugs' pages as one. */
function sumBugs(results: (BugResult | undefined)[]): BugResult | undefined {
  const present = results.filter((result): result is BugResult => result !== undefined);
  if (present.length === 0) return undefined;
  const total = (field: 'pages' | 'eventsSent' | 'acknowledged' | 'notAcknowledged' | 'ownGaveUp') => present.reduce((sum, bug) => sum + (bug[field] ?? 0), 0);
  const sentry = { 'dropped-on-429': 0, 'held-back': 0, failed: 0 };
  for (const bug of present) for (const outcome of Object.keys(sentry) as (keyof typeof sentry)[]) sentry[outcome] += bug.sentry?.[outcome] ?? 0;
  return {
    pages: total('pages'),
    eventsSent: total('eventsSent'),
    acknowledged: total('acknowledged'),
    notAcknowledged: total('notAcknowledged'),
    ownGaveUp: total('ownGaveUp'),
    sentry,
  };
}

interface RunResult {
  design: string;
  requests: number;
  eventsSent: number;
  eventsAcknowledged: number;
  /** Events of requests the SDK gave up on (never acknowledged). */
  eventsLost: number;
  bugs: Record<string, BugResult>;
  /** Answers other than 2xx by bug, by status and `error` (which limit, ceiling or failure answered). */
  refusals: Record<string, Record<string, number>>;
  /** 429 answers lacking Retry-After (or, for Sentry, X-Sentry-Rate-Limits). */
  bare429: number;
  check: StormCheck;
  /** The maps' upload before the storm (source-mapped runs). */
  upload?: { maps: number; ms: number };
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
  /** Write units by what was written (WRITE_KINDS). */
  unitsByKind: Record<string, number>;
  throttles: number;
  conflicts: number;
  hottest: { key: string; units: number; throttles: number }[];
}

/** A try's answer; its value: the milliseconds it took, X-Sentry-Rate-Limits, and a refusal's `error`. */
type PostAnswer = TryAnswer<{ ms: number; rateLimits: string | null; error?: string }>;

/** One POST from a visitor's address; its status (undefined: no answer in time), Retry-After, X-Sentry-Rate-Limits, and the `error` of a refusal. */
async function post(url: string, headers: Record<string, string>, body: string, localAddress: string): Promise<PostAnswer> {
  const { status, ms, retryAfter, rateLimits, text } = await postFrom(url, headers, body, localAddress, CLIENT_TIMEOUT_MS);
  const error = status !== undefined && status >= 400 ? errorOf(text) : undefined;
  return { status, retryAfter, value: { ms, rateLimits, ...(error ? { error } : {}) } };
}

/** A refusal's `error`, its numbers blanked (so that refusals group by kind). */
function errorOf(text: string): string {
  try {
    const error = (JSON.parse(text) as { error?: unknown }).error;
    return typeof error === 'string' ? error.replace(/\d+(\.\d+)?/g, 'N').slice(0, 120) : '(no error field)';
  } catch {
    return '(not JSON)';
  }
}

/** The second bug's visitors: addresses no storm page takes. */
const OTHER_VISITORS = 5_000_000;

/** The storm's one bug without maps: the same stack from any deploy (its bundle's hash differs). */
function unmappedError(): PageError {
  const hash = Math.floor(Math.random() * 0xefffffff + 0x10000000).toString(16);
  return {
    type: 'TypeError',
    value: 'cart is undefined',
    stack: `TypeError: cart is undefined\n    at renderCart (${SITE}/assets/app.${hash}.js:120:7)\n    at main (${SITE}/assets/app.${hash}.js:310:1)`,
  };
}

/** The second bug (--other-rate): another error of the same site. */
function otherError(): PageError {
  return {
    type: 'RangeError',
    value: 'Invalid currency code',
    stack: `RangeError: Invalid currency code\n    at formatPrice (${SITE}/assets/checkout.js:44:11)\n    at renderTotal (${SITE}/assets/checkout.js:90:3)`,
  };
}

/** An error as the own SDK sends it. */
function ownEvent(error: PageError, release: string): Record<string, unknown> {
  return {
    eventId: randomUUID(),
    message: `${error.type}: ${error.value}`,
    exception: { type: error.type, value: error.value, stack: error.stack },
    release,
    ...(error.debugIds ? { debugIds: error.debugIds } : {}),
  };
}

/** Items of the reports table whose key begins with `prefix` (a Scan of DynamoDB Local itself, past the proxy); `keep`: the attributes to read (none: count only). */
async function scanItems(
  doc: ReturnType<typeof documentClientOf>,
  prefix: string,
  keep?: string[],
): Promise<{ count: number; items: Record<string, unknown>[] }> {
  let count = 0;
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  const names = keep ? Object.fromEntries(keep.map((name, i) => [`#a${i}`, name])) : undefined;
  do {
    const page = await doc.send(
      new ScanCommand({
        TableName: LOCAL_TABLE_NAMES.reports,
        FilterExpression: 'begins_with(pk, :p)',
        ExpressionAttributeValues: { ':p': prefix },
        ExclusiveStartKey: start,
        ...(names && keep && keep.length > 0 ? { ProjectionExpression: Object.keys(names).join(', '), ExpressionAttributeNames: names } : {}),
      }),
    );
    count += page.Count ?? 0;
    if (keep) items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return { count, items };
}

/**
 * The factory's stored events, each with the issue the tally counted it into: as the tally decides it
 * (lambda/ingest/tally/issue-of-event.ts), the issue its first grouping hash is tied to in the alias items, else
 * the one its item names (a design before aliases).
 */
async function talliedEvents(raw: ReturnType<typeof documentClientOf>, factoryId: string): Promise<ScannedEvent[]> {
  const aliases = new Map(
    (await scanItems(raw, `alias#${factoryId}#`, ['pk', 'issue'])).items.map((item) => [
      String(item.pk).slice(String(item.pk).lastIndexOf('#') + 1),
      String(item.issue),
    ]),
  );
  return (await scanItems(raw, `event#${factoryId}#`, [])).items.map((item) => {
    const event = storedEventOf(item);
    const first = groupingCandidates(event)[0];
    const issue = (first && aliases.get(fingerprintHash(first))) ?? event.issueId;
    return { eventId: event.eventId, ...(issue === undefined ? {} : { issue }), ...(event.frames ? { frames: event.frames } : {}) };
  });
}

/** Builds the minified app, uploads its maps through the service's upload API (sourcemaps upload's code) with a secret key of the factory. */
async function uploadApp(baseUrl: string, admin: KeyAdmin, factoryId: string): Promise<{ errors: PageError[]; maps: number; ms: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'storm-app-'));
  try {
    const { dist, builds } = await buildStormApp(dir, SITE);
    const { key, keyId } = await admin.create({ factoryId, type: 'secret' });
    const started = performance.now();
    const uploaded = await runUpload(dist, { url: baseUrl, key });
    const ms = Math.round(performance.now() - started);
    await admin.revoke(keyId);
    if (!uploaded.ok || uploaded.output.uploaded !== builds.length) throw new Error(`the maps' upload failed: ${JSON.stringify(uploaded.output)}`);
    return { errors: builds.map((build) => throwIn(dist, build, SITE)), maps: builds.length, ms };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Waits until the factory's stored events stay the same for STABLE_POLLS polls and its issues' counts add up to them:
 * the seconds after `from` when that held, or undefined when it did not by `deadline`.
 */
async function untilCounted(raw: ReturnType<typeof documentClientOf>, factoryId: string, from: number, deadline: number): Promise<number | undefined> {
  let stable = 0;
  let last = -1;
  for (;;) {
    const stored = (await scanItems(raw, `event#${factoryId}#`)).count;
    const issues = (await scanItems(raw, `issue#${factoryId}#`, ['pk', 'count'])).items;
    const counted = issues.reduce((sum, item) => sum + Number(item.count ?? 0), 0);
    stable = stored === last ? stable + 1 : 0;
    last = stored;
    if (stored > 0 && counted === stored && stable >= STABLE_POLLS) return Math.round((performance.now() - from) / 100) / 10;
    if (performance.now() > deadline) return undefined;
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 500));
  }
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
    const proxy = startChild(
      process.execPath,
      ['--import', 'tsx', 'tools/semantics/main.ts', '--target', dynamo.endpoint, '--ceiling', String(settings.ceiling), '--port', '0'],
      {
        cwd: PROJECT_ROOT,
        env,
        ready: /DYNAMODB_ENDPOINT=(\S+)/,
        timeoutMs: 60_000,
      },
    );
    children.push(proxy.child);
    const proxyEndpoint = (await proxy.ready)[1] as string;
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'storm-data-'));
    const serversDir = mkdtempSync(join(tmpdir(), 'storm-servers-'));
    // npm start's own S3 store (under CONTACTS_DATA_DIR) holds the maps: S3_ENDPOINT from the caller's shell would bypass it.
    const { S3_ENDPOINT: _unused, ...startEnv } = env;
    const server = startChild(process.execPath, ['--import', 'tsx', 'local/harness/commands/start.ts'], {
      cwd: root,
      env: {
        ...startEnv,
        DYNAMODB_ENDPOINT: proxyEndpoint,
        PORT: String(port),
        CONTACTS_DATA_DIR: dataDir,
        CONTACTS_SERVERS_DIR: serversDir,
        CONTACTS_STREAMS: 'on',
        LOCAL_CONCURRENCY: String(settings.concurrency),
      },
      ready: /Contacts API listening on (http:\/\/localhost:\d+)/,
      timeoutMs: 120_000,
      ...(process.env.STORM_SERVER_LOG ? { log: (text: string) => appendFileSync(process.env.STORM_SERVER_LOG as string, text) } : {}),
    });
    children.push(server.child);
    const baseUrl = ((await server.ready)[1] as string).replace('localhost', '127.0.0.1');
    const doc = documentClientOf(createDynamoClient({ ...LOCAL_DYNAMO_CONFIG, endpoint: proxyEndpoint }));
    const admin = new KeyAdmin(doc, LOCAL_TABLE_NAMES.keys);
    /** A factory of its own for a storm: its key, and its app's maps uploaded (source-mapped runs and the mix). */
    const prepareFactory = async () => {
      const factoryId = `fac_storm_${randomUUID().slice(0, 8)}`;
      const { key, keyId } = await admin.create({ factoryId, type: 'publishable', origins: [SITE], rateLimit: settings.keyLimit });
      if (!(settings.sourceMaps || settings.mix)) return { factoryId, key, keyId };
      const app = await uploadApp(baseUrl, admin, factoryId);
      return { factoryId, key, keyId, mappedErrors: app.errors, upload: { maps: app.maps, ms: app.ms } };
    };
    const target = await prepareFactory();
    const { factoryId, upload } = target;
    if (upload) say(`uploaded ${upload.maps} maps in ${upload.ms} ms`);
    const raw = documentClientOf(rawClient);
    if (settings.warmupS > 0) {
      // DynamoDB does not compile itself as it warms, and the containers of a storm that has lasted a while are warm: a
      // cold DynamoDB Local spends about half its CPU of the first 30 s in its JIT compiler (docs/capacity.md#warm-up).
      const warm = await prepareFactory();
      say(`warm-up (not measured): the same storm for ${settings.warmupS} s on a factory of its own`);
      const warmed = await sendStorm(warm, settings.warmupS);
      const settledAfterS = await untilCounted(raw, warm.factoryId, warmed.ended, warmed.ended + settings.settleS * 1000);
      say(`warm-up over; its events all counted ${settledAfterS === undefined ? 'not within --settle' : `${settledAfterS} s after`}`);
    }
    await proxyCall(proxyEndpoint, 'POST', '/__semantics/reset');
    say(
      `storm: ${settings.rate} events/s for ${settings.durationS}s, ${settings.mix ? 'the mix' : `${settings.protocol} protocol${settings.sourceMaps ? ', source-mapped' : ''}`}, ${settings.eventsPerRequest} per page, ceiling ${settings.ceiling} WCU/s`,
    );
    const { tryLatencies, deliveries, answers, tries, bare429, sent, acknowledgedIds, bugs, refusals, requests, started, ended } = await sendStorm(
      target,
      settings.durationS,
    );
    say(`storm over after ${Math.round((ended - started) / 1000)} s; waiting for the count`);

    /** The pages of one storm on `storm`'s factory for `durationS` seconds, and what they met. */
    async function sendStorm(storm: { key: string; keyId: string; mappedErrors?: PageError[] }, durationS: number) {
      const { key, keyId, mappedErrors } = storm;
      const sentryUrl = envelopeUrlOf(dsnFor(baseUrl, key, keyId));
      const tryLatencies: number[] = [];
      const deliveries: number[] = [];
      const answers: Record<string, number> = {};
      let tries = 0;
      let bare429 = 0;
      const sent = new Map<string, Set<string>>();
      const acknowledgedIds = new Map<string, Set<string>>();
      const bugs: Record<string, BugResult> = {};
      const refusals: Record<string, Record<string, number>> = {};
      const noteAnswer = (bug: string, { status, retryAfter, value: { ms, rateLimits, error } }: PostAnswer) => {
        if (status === undefined || status >= 400) {
          const reasons = (refusals[bug] ??= {});
          const reason = status === undefined ? 'no answer' : `${status} ${error ?? '?'}`;
          reasons[reason] = (reasons[reason] ?? 0) + 1;
        }
        tries += 1;
        tryLatencies.push(ms);
        const label = status === undefined ? 'no answer' : String(status);
        answers[label] = (answers[label] ?? 0) + 1;
        if (status === 429 && (!retryAfter || (settings.protocol === 'sentry' && !rateLimits))) bare429 += 1;
      };

      /** A page's errors, the release it runs and the SDK it reports with. */
      interface Page {
        bug: string;
        errors: PageError[];
        release: string;
        protocol: 'own' | 'sentry';
      }

      /** One page of `bug` reports its errors; answers when its SDK is done with them. */
      const page = async (index: number, { bug, errors, release, protocol }: Page): Promise<void> => {
        const from = visitorAddress(index);
        const result = (bugs[bug] ??= { pages: 0, eventsSent: 0, acknowledged: 0, notAcknowledged: 0 });
        const ids = setOf(sent, bug);
        const acked = setOf(acknowledgedIds, bug);
        result.pages += 1;
        result.eventsSent += errors.length;
        const first = performance.now();
        if (protocol === 'own') {
          const events = errors.map((error) => ownEvent(error, release));
          for (const event of events) ids.add(event.eventId as string);
          const body = JSON.stringify({ events });
          const headers = { Origin: SITE, Authorization: `Bearer ${key}`, 'Content-Type': 'text/plain;charset=UTF-8' };
          const outcome = await sendAsTheSdk(() => post(`${baseUrl}/ingest/v1/events`, headers, body, from));
          for (const answer of outcome.answers) noteAnswer(bug, answer);
          if (outcome.delivered) {
            result.acknowledged += events.length;
            for (const event of events) acked.add(event.eventId as string);
            deliveries.push(performance.now() - first);
          } else {
            result.notAcknowledged += events.length;
            result.ownGaveUp = (result.ownGaveUp ?? 0) + events.length;
          }
          return;
        }
        // Sentry's SDK: one envelope per event, through its own transport; the page's fetch is the bench's (its address, its Origin).
        const transport = sentryPage(sentryUrl, (async (url: string, init: { body: string }) => {
          const answer = await post(url, { Origin: SITE, 'Content-Type': 'text/plain;charset=UTF-8' }, init.body, from);
          noteAnswer(bug, answer);
          if (answer.status === undefined) throw new TypeError('Failed to fetch');
          const headers = { 'retry-after': answer.retryAfter, 'x-sentry-rate-limits': answer.value.rateLimits };
          return { status: answer.status, headers: { get: (name: string) => headers[name.toLowerCase() as keyof typeof headers] ?? null } };
        }) as unknown as Parameters<typeof sentryPage>[1]);
        for (const error of errors) {
          const eventId = randomUUID();
          ids.add(eventId);
          const event = sentryBrowserEvent(error, { eventId, pageUrl: `${SITE}/cart`, release, timestampS: Date.now() / 1000 });
          const answer = await transport.send(eventEnvelope(event, new Date().toISOString()));
          if (answer.outcome === 'acknowledged') {
            result.acknowledged += 1;
            acked.add(eventId);
            deliveries.push(performance.now() - first);
          } else {
            result.notAcknowledged += 1;
            result.sentry ??= { 'dropped-on-429': 0, 'held-back': 0, failed: 0 };
            result.sentry[answer.outcome] += 1;
          }
        }
      };

      /** Errors a page reports: one per Sentry page alone (one envelope each); otherwise --events (the own SDK's one request, or the mix's envelopes). */
      const perPage = settings.protocol === 'own' || settings.mix ? settings.eventsPerRequest : 1;
      /** The pages of `rate` events a second: an open arrival schedule, each page at its time whatever the answers before it. */
      const schedule = async (rate: number, firstVisitor: number, pageOf: (i: number) => Page) => {
        const pagesPerSecond = rate / perPage;
        const total = Math.round(pagesPerSecond * durationS);
        const pages: Promise<void>[] = [];
        for (let i = 0; i < total; i += 1) {
          const wait = started + (i * 1000) / pagesPerSecond - performance.now();
          if (wait > 0) await new Promise((resolvePromise) => setTimeout(resolvePromise, wait));
          pages.push(page(firstVisitor + i, pageOf(i)));
        }
        await Promise.all(pages);
        return total;
      };
      const errorsOf = (make: () => PageError) => Array.from({ length: perPage }, make);
      /** The storm's page i: one bug from a build with maps (half the pages each build) or without, through its SDK. */
      const stormPage = (i: number): Page => {
        if (settings.mix) {
          // Four kinds in turn: own mapped, Sentry mapped, own unmapped, Sentry unmapped.
          const protocol = i % 2 === 0 ? 'own' : 'sentry';
          const mapped = Math.floor(i / 2) % 2 === 0;
          if (!mapped || !mappedErrors) return { bug: 'unmapped', errors: errorsOf(() => typicalError()), release: 'web@4.2.0', protocol };
          const build = Math.floor(i / 4) % mappedErrors.length;
          return { bug: 'mapped', errors: errorsOf(() => mappedErrors[build] as PageError), release: `web@4.${2 + build}.0`, protocol };
        }
        // Source-mapped: half the pages run build 1, half build 2 (the minifier's names differ): one bug, one issue.
        const error = (): PageError => (mappedErrors ? (mappedErrors[i % mappedErrors.length] as PageError) : unmappedError());
        return {
          bug: 'storm',
          errors: errorsOf(error),
          release: mappedErrors ? `web@4.${2 + (i % mappedErrors.length)}.0` : 'web@4.2.0',
          protocol: settings.protocol,
        };
      };
      const started = performance.now();
      const [requests] = await Promise.all([
        schedule(settings.rate, 0, stormPage),
        settings.otherRate > 0
          ? schedule(settings.otherRate, OTHER_VISITORS, () => ({
              bug: 'other',
              errors: errorsOf(otherError),
              release: 'web@4.2.0',
              protocol: settings.protocol,
            }))
          : Promise.resolve(0),
      ]);
      const ended = performance.now();
      return { tryLatencies, deliveries, answers, tries, bare429, sent, acknowledgedIds, bugs, refusals, requests, started, ended };
    }

    const judge = async () =>
      checkStorm({
        events: await talliedEvents(raw, factoryId),
        issues: (await scanItems(raw, `issue#${factoryId}#`, ['pk', 'count'])).items as unknown as ScannedIssue[],
        sent,
        acknowledged: acknowledgedIds,
        ...(settings.sourceMaps || settings.mix ? { mapped: { bug: settings.mix ? 'mapped' : 'storm', appPrefix: `${SITE}/assets/app-` } } : {}),
      });
    // Requests a client gave up on may still be served after the storm (npm start's queue): the counts are judged once
    // the events stored stay the same for STABLE_POLLS polls and every issue's count equals them.
    let exactSince: number | undefined;
    let check: StormCheck | undefined;
    let stable = 0;
    let last = -1;
    for (const deadline = ended + settings.settleS * 1000; ; ) {
      const stored = (await scanItems(raw, `event#${factoryId}#`)).count;
      const issues = (await scanItems(raw, `issue#${factoryId}#`, ['pk', 'count'])).items;
      const counted = issues.reduce((sum, item) => sum + Number(item.count ?? 0), 0);
      stable = stored === last ? stable + 1 : 0;
      last = stored;
      if (stored > 0 && counted === stored) {
        exactSince ??= performance.now();
        if (stable >= STABLE_POLLS) {
          check = await judge();
          if (check.exact && check.counted === check.stored) break;
        }
      } else exactSince = undefined;
      if (performance.now() > deadline) break;
      await new Promise((resolvePromise) => setTimeout(resolvePromise, 500));
    }
    const exactAfterS = exactSince === undefined ? undefined : Math.round((exactSince - ended) / 100) / 10;
    check ??= await judge();
    const stats = JSON.parse(await proxyCall(proxyEndpoint, 'GET', '/__semantics/stats?limit=5')) as StatsSnapshot;
    const unitsByKind: Record<string, number> = {};
    for (const [kind, query] of Object.entries(WRITE_KINDS)) {
      const matched = JSON.parse(await proxyCall(proxyEndpoint, 'GET', `/__semantics/stats?${query}&limit=0`)) as StatsSnapshot;
      unitsByKind[kind] = matched.matched.units;
    }
    const sum = (field: 'units' | 'throttles' | 'conflicts') => Object.values(stats.totals).reduce((total, table) => total + table[field], 0);
    const serverErrors = Object.entries(answers)
      .filter(([status]) => status.startsWith('5'))
      .reduce((total, [, n]) => total + n, 0);
    const pct = (values: number[], q: number) => Math.round(percentile(values, q));
    const bugList = Object.values(bugs);
    return {
      design,
      requests,
      eventsSent: bugList.reduce((total, bug) => total + bug.eventsSent, 0),
      eventsAcknowledged: bugList.reduce((total, bug) => total + bug.acknowledged, 0),
      eventsLost: bugList.reduce((total, bug) => total + bug.notAcknowledged, 0),
      bugs,
      refusals,
      bare429,
      check,
      ...(upload ? { upload } : {}),
      answers,
      serverErrors,
      tries,
      tryLatency: { p50: pct(tryLatencies, 0.5), p99: pct(tryLatencies, 0.99) },
      deliveryLatency: { p50: pct(deliveries, 0.5), p99: pct(deliveries, 0.99) },
      stored: check.stored,
      counted: check.counted,
      exactAfterS,
      calls: Object.values(stats.operations).reduce((total, operation) => total + operation.requests, 0),
      units: sum('units'),
      unitsByKind,
      throttles: sum('throttles'),
      conflicts: sum('conflicts'),
      hottest: stats.partitions.map((partition) => ({
        key: `${partition.index ? `${partition.index}:` : ''}${partition.key}`,
        units: partition.units,
        throttles: partition.throttles,
      })),
    };
  } finally {
    for (const child of children.reverse()) await stopChild(child);
    rawClient.destroy();
    await dynamo.stop();
  }
}

/**
 * A worktree of `ref` (served.ts), its npm start given the same handler calls at once as this design's (a design
 * that predates LOCAL_CONCURRENCY has the number in its adapter: edited there, in the worktree only), so that both
 * meet the storm with the same containers.
 */
function baselineTree(ref: string, concurrency: number): { root: string; remove: () => void } {
  return worktreeOf(ref, (root) => {
    const adapter = join(root, 'local', 'http-adapter.ts');
    if (!existsSync(adapter)) return;
    const text = readFileSync(adapter, 'utf8');
    if (!text.includes('LOCAL_CONCURRENCY')) writeFileSync(adapter, text.replace(/concurrency: \d+, maxWaiting/, `concurrency: ${concurrency}, maxWaiting`));
  });
}

const cell = (value: number | string | undefined) => (value === undefined ? '—' : typeof value === 'number' ? value.toLocaleString('en-US') : value);
const perEvent = (value: number, events: number) => (events === 0 ? '—' : (value / events).toFixed(2));

/** The command that repeats a run. */
function commandOf(settings: Settings, baseline: string): string {
  const options = [`--rate ${settings.rate}`, `--duration ${settings.durationS}`];
  if (settings.mix) options.push('--mix', `--events ${settings.eventsPerRequest}`);
  else if (settings.protocol === 'own') options.push(`--events ${settings.eventsPerRequest}`);
  else options.push(`--protocol ${settings.protocol}`);
  if (settings.sourceMaps && !settings.mix) options.push('--source-maps');
  if (settings.keyLimit !== NO_KEY_LIMIT) options.push(`--key-limit ${settings.keyLimit}`);
  if (settings.otherRate > 0) options.push(`--other-rate ${settings.otherRate}`);
  options.push(`--warmup ${settings.warmupS}`);
  options.push(`--ceiling ${settings.ceiling}`, `--concurrency ${settings.concurrency}`);
  const newMode = settings.protocol !== 'own' || settings.sourceMaps || settings.mix;
  if (baseline !== (newMode ? 'none' : DEFAULT_BASELINE)) options.push(`--baseline ${baseline}`);
  return `npm run bench:storm -- ${options.join(' ')}`;
}

const count = (values: Record<string, number>) =>
  Object.entries(values)
    .map(([name, n]) => `${name}: ${n}`)
    .join(', ');

/** Issue 50's targets for a storm (docs/capacity.md#the-event-mix-issue-50-where-the-proof-stands), each run's five figures in one table. */
const TARGETS = { p99Ms: 1500, unitsPerEvent: 1.2 };

function proofTable(runs: RunResult[], machine: Machine): string[] {
  const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');
  const load = `${machine.loadAtStart.toFixed(1)} → ${machine.loadAtEnd?.toFixed(1) ?? '?'}`;
  return [
    `| the proof | lost after acknowledgment | 5xx | counts exact | p99 per try (ms) | write units per stored event | load |`,
    '|---|---:|---:|---|---:|---:|---|',
    ...runs.map((r) => {
      const units = r.stored === 0 ? Number.NaN : r.units / r.stored;
      return `| ${r.design} | ${cell(r.check.lostAfterAcknowledgment)} (${verdict(r.check.lostAfterAcknowledgment === 0)}) | ${cell(r.serverErrors)} (${verdict(r.serverErrors === 0)}) | ${r.check.exact ? 'yes' : '**no**'} | ${cell(r.tryLatency.p99)} (${verdict(r.tryLatency.p99 <= TARGETS.p99Ms)}: ≤ ${cell(TARGETS.p99Ms)}; under a load over 1.5 it is the machine's) | ${perEvent(r.units, r.stored)} (${verdict(units <= TARGETS.unitsPerEvent)}: ≤ ${TARGETS.unitsPerEvent}) | ${load} |`;
    }),
    '',
  ];
}

function report(settings: Settings, baseline: string, machine: Machine, runs: RunResult[]): string {
  const sentry = settings.protocol === 'sentry' || settings.mix;
  // The storm's pages: its one bug, or under --mix both of its bugs together.
  const storm = (r: RunResult): BugResult | undefined => (settings.mix ? sumBugs([r.bugs.mapped, r.bugs.unmapped]) : r.bugs.storm);
  const stormCheck = (r: RunResult) => (settings.mix ? [r.check.bugs.mapped, r.check.bugs.unmapped] : [r.check.bugs.storm]);
  const rows: [string, (run: RunResult) => string][] = [
    [sentry ? 'pages (one envelope each)' : 'requests sent (pages)', (r) => cell(r.requests)],
    ['events sent', (r) => cell(storm(r)?.eventsSent)],
    [sentry ? 'events acknowledged (200)' : 'events acknowledged (2xx)', (r) => cell(storm(r)?.acknowledged)],
  ];
  if (sentry) {
    rows.push(
      ["dropped by the SDK on 429 (never sent again, as Sentry's SDKs do)", (r) => cell(storm(r)?.sentry?.['dropped-on-429'] ?? 0)],
      ['held back by the SDK after a 429 (not sent)', (r) => cell(storm(r)?.sentry?.['held-back'] ?? 0)],
      ['dropped by the SDK on a 5xx or no answer', (r) => cell(storm(r)?.sentry?.failed ?? 0)],
    );
  }
  if (settings.protocol === 'own' || settings.mix)
    rows.push([
      "events not acknowledged after the own SDK's retries (it gave up)",
      (r) => cell(settings.mix ? storm(r)?.ownGaveUp : storm(r)?.notAcknowledged),
    ]);
  rows.push(
    ['**lost after acknowledgment** (acknowledged, not stored)', (r) => cell(r.check.lostAfterAcknowledgment)],
    [
      'stored though not acknowledged (served after the client gave up, or answered 429 after storing)',
      (r) => cell(stormCheck(r).reduce((sum, bug) => sum + (bug ? bug.stored - bug.acknowledgedStored : 0), 0)),
    ],
    ['5xx answers', (r) => cell(r.serverErrors)],
    ['answers by status', (r) => count(r.answers)],
    [
      "the storm's answers other than 2xx, by error",
      (r) => {
        // The storm's bugs (one, or the mix's two), without the other bug's.
        const reasons: Record<string, number> = {};
        for (const [bug, byReason] of Object.entries(r.refusals))
          if (bug !== 'other') for (const [reason, n] of Object.entries(byReason)) reasons[reason] = (reasons[reason] ?? 0) + n;
        return count(reasons) || 'none';
      },
    ],
    [`429 answers without Retry-After${sentry ? ' or X-Sentry-Rate-Limits' : ''}`, (r) => cell(r.bare429)],
    ["events stored / the issues' counts", (r) => `${cell(r.stored)} / ${cell(r.counted)}`],
    [
      'issues (count = events stored in it)',
      (r) =>
        `${r.check.issues.length}: ${r.check.issues.map((issue) => `${cell(issue.count)} = ${cell(issue.stored)}`).join(', ')}${r.check.exact ? ' (exact)' : ' (**not exact**)'}`,
    ],
    [
      settings.mix ? 'issues of the mapped bug / of the unmapped bug' : "the storm's issues",
      (r) =>
        stormCheck(r)
          .map((bug) => cell(bug?.issues.length))
          .join(' / '),
    ],
    ["count exact (and staying so) after the storm's end (s)", (r) => cell(r.exactAfterS)],
  );
  if (settings.sourceMaps) {
    rows.push(
      ['maps uploaded before the storm (sourcemaps upload, ms)', (r) => (r.upload ? `${r.upload.maps} in ${cell(r.upload.ms)}` : '—')],
      [
        'stored storm events with every app frame resolved',
        (r) => (r.check.frames ? `${cell(r.check.frames.resolved)} of ${cell(r.check.frames.events)}` : '—'),
      ],
      ["their top frame's original function", (r) => (r.check.frames ? count(r.check.frames.topFunctions) : '—')],
      ['app frames left unresolved, by reason', (r) => (r.check.frames ? count(r.check.frames.unresolved) || 'none' : '—')],
    );
  }
  if (settings.otherRate > 0) {
    const other = (r: RunResult) => r.bugs.other;
    rows.push(
      ['the other bug: events sent / acknowledged', (r) => `${cell(other(r)?.eventsSent)} / ${cell(other(r)?.acknowledged)}`],
      ['the other bug: not acknowledged', (r) => (sentry ? count(other(r)?.sentry ?? {}) || '0' : cell(other(r)?.notAcknowledged))],
      ['the other bug: answers other than 2xx, by error', (r) => count(r.refusals.other ?? {}) || 'none'],
      ['the other bug: stored, its issues', (r) => `${cell(r.check.bugs.other?.stored)}, ${cell(r.check.bugs.other?.issues.length)}`],
    );
  }
  rows.push(
    ['latency per try p50 / p99 (ms)', (r) => `${cell(r.tryLatency.p50)} / ${cell(r.tryLatency.p99)}`],
    ['first try to acknowledgment p50 / p99 (ms)', (r) => `${cell(r.deliveryLatency.p50)} / ${cell(r.deliveryLatency.p99)}`],
    ['DynamoDB calls per stored event', (r) => perEvent(r.calls, r.stored)],
    ['write units per stored event', (r) => perEvent(r.units, r.stored)],
    [
      'of which (per stored event)',
      (r) =>
        Object.entries(r.unitsByKind)
          .filter(([, units]) => units > 0)
          .map(([kind, units]) => `${kind} ${perEvent(units, r.stored)}`)
          .join(', '),
    ],
    ['throttled writes / conflicts', (r) => `${cell(r.throttles)} / ${cell(r.conflicts)}`],
    [
      'most charged partitions (units, throttles)',
      (r) =>
        r.hottest
          .slice(0, 3)
          .map((p) => `\`${p.key.slice(0, 48)}\` ${p.units}, ${p.throttles}`)
          .join('; '),
    ],
  );
  const kind = [
    settings.mix
      ? `the mix: pages of the own SDK (${settings.eventsPerRequest} events a request) and of Sentry's (an envelope each), of a mapped build and of an unmapped one, in turn`
      : sentry
        ? 'Sentry browser SDK envelopes'
        : `${settings.eventsPerRequest} event(s) a request`,
    settings.sourceMaps && !settings.mix ? 'source-mapped' : '',
    settings.keyLimit !== NO_KEY_LIMIT ? `key limit ${settings.keyLimit}/min` : '',
    settings.otherRate > 0 ? `another bug at ${settings.otherRate}/s` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const lines = [
    `## Storm: ${settings.rate} events/s on one issue for ${settings.durationS} s, ${kind}, ceiling ${settings.ceiling} WCU/s per partition`,
    '',
    ...proofTable(runs, machine),
    `Measured ${machine.date} on ${machine.cores} × ${machine.cpuModel}, Node ${machine.node}, DynamoDB Local ${machine.dynamodb}; 1-minute load average ${machine.loadAtStart.toFixed(1)} at the start, ${machine.loadAtEnd?.toFixed(1)} at the end. Command: \`${commandOf(settings, baseline)}\` (npm start with ${settings.concurrency} handler calls at once).`,
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
    'source-maps': { type: 'boolean' },
    mix: { type: 'boolean' },
    protocol: { type: 'string' },
    'key-limit': { type: 'string' },
    'other-rate': { type: 'string' },
    warmup: { type: 'string' },
    out: { type: 'string' },
    append: { type: 'boolean' },
    sessions: { type: 'boolean' },
    users: { type: 'string' },
    seed: { type: 'string' },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  if (values.sessions === true) {
    const ceiling = positiveIntArg('--ceiling', values.ceiling, 1_000) ?? SESSION_CEILING;
    const sessions = {
      ceiling,
      rate: positiveIntArg('--rate', values.rate, 5_000) ?? ceiling * 10,
      durationS: positiveIntArg('--duration', values.duration, 3_600) ?? 60,
      users: positiveIntArg('--users', values.users, 1_000_000) ?? 2_000,
      settleS: positiveIntArg('--settle', values.settle, 3_600) ?? 120,
      concurrency: positiveIntArg('--concurrency', values.concurrency, 1_000) ?? 64,
      seed: positiveIntArg('--seed', values.seed, 2 ** 31) ?? 52,
    };
    const out = resolve(PROJECT_ROOT, values.out ?? 'bench/session-storm-results.md');
    return sessionStormCommand(sessions, out, values.append === true, dynamoDbLocalVersion());
  }
  // --mix alone runs issue 50's model: 1:50 (20 units a second), 200 events a second for 30 s, 5 events a page.
  const model = values.mix === true ? MIX_MODEL : { ceiling: DEFAULT_CEILING, rate: DEFAULT_CEILING * 10, durationS: 60, eventsPerRequest: 1, warmupS: 0 };
  const settings: Settings = {
    ceiling: positiveIntArg('--ceiling', values.ceiling, 1_000) ?? model.ceiling,
    rate: positiveIntArg('--rate', values.rate, 5_000) ?? model.rate,
    durationS: positiveIntArg('--duration', values.duration, 3_600) ?? model.durationS,
    eventsPerRequest: positiveIntArg('--events', values.events, 20) ?? model.eventsPerRequest,
    settleS: positiveIntArg('--settle', values.settle, 3_600) ?? 60,
    concurrency: positiveIntArg('--concurrency', values.concurrency, 1_000) ?? 64,
    protocol: protocolArg(values.protocol),
    sourceMaps: values['source-maps'] === true || values.mix === true,
    mix: values.mix === true,
    keyLimit: positiveIntArg('--key-limit', values['key-limit'], NO_KEY_LIMIT) ?? NO_KEY_LIMIT,
    otherRate: positiveIntArg('--other-rate', values['other-rate'], 5_000) ?? 0,
    warmupS: values.warmup === '0' ? 0 : (positiveIntArg('--warmup', values.warmup, 600) ?? model.warmupS),
  };
  if (settings.protocol === 'sentry' && values.events !== undefined)
    throw new UsageError("--events is for the own protocol: Sentry's SDK sends one event an envelope");
  if (settings.mix && values.protocol !== undefined) throw new UsageError('--mix sends through both protocols: leave out --protocol');
  const newMode = settings.protocol !== 'own' || settings.sourceMaps || settings.mix;
  const baseline = values.baseline ?? (newMode ? 'none' : DEFAULT_BASELINE);
  if (newMode && commitOf(baseline) === commitOf(DEFAULT_BASELINE))
    throw new UsageError(
      `--baseline ${baseline}: the design before issue 29 had no source maps and no Sentry protocol; name a later release (c1effd8, the release before issue 50) or none`,
    );
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
  const text = report(settings, baseline, finishMachine(machine), runs);
  process.stdout.write(`${text}\n`);
  if (values.append === true && existsSync(out)) appendFileSync(out, `\n${text}`);
  else
    writeFileSync(out, `# Storm benchmark\n\nWritten by \`npm run bench:storm\` (tools/bench/storm.ts); see docs/capacity.md#the-storm-benchmark.\n\n${text}`);
  process.stderr.write(`wrote ${relative(process.cwd(), out)}\n`);
});
