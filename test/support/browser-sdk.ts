import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../local/harness/ports';
import { enginesUnderTest, launchEngine, type Engine, type EngineName, type Tab } from '../../tools/browsers/engines';
import { startScript } from './commands';
import { storedReports } from './ingest';
import { endpoint, issuePublishableKey, newFactoryId } from './local-api';
import { until } from './until';

/**
 * What the browser SDK's tests share (test/browser/sdk/): the one-file build
 * made by `npm run sdk:build`, `npm start` on the run's DynamoDB Local (able
 * to stop and start again on the same port), customer sites served from
 * localhost origins, a recording proxy and a fake ingest API that see what
 * every engine sends, the engines to run in (tools/browsers/engines.ts), and
 * waits for conditions with deadlines.
 */

/**
 * The engines the SDK's browser tests run in, and for each case an engine
 * cannot do, the engine's reason: such a case is skipped with that reason in
 * its name, never silently.
 */
export function engineCases(skips: Partial<Record<EngineName, string>> = {}): { engine: EngineName; skip?: string }[] {
  return enginesUnderTest().map((engine) => ({ engine, ...(skips[engine] === undefined ? {} : { skip: skips[engine] }) }));
}

/** `test`, or `test.skip` named with the engine's reason when `skip` says it cannot do the case. */
export function engineTest(title: string, skip: string | undefined, run: () => Promise<void>, timeoutMs?: number): void {
  if (skip === undefined) test(title, run, timeoutMs);
  else test.skip(`${title} (skipped: ${skip})`, run);
}

/** Launches the engine once for the describe block this is called in, closed after it; the block's tests reach it through the answer. */
export function engineOfBlock(name: EngineName): () => Engine {
  let engine: Engine | undefined;
  beforeAll(async () => {
    engine = await launchEngine(name);
  }, 60_000);
  afterAll(() => engine?.close());
  return () => {
    if (!engine) throw new Error(`${name} did not start`);
    return engine;
  };
}

/**
 * A factory of its own (`factoryPrefix`; or `factoryId`, one the test shares
 * between tabs) with a publishable key for the site, and a new tab on `on` (the site unless given) at /<engine><path>,
 * whose page the site serves from `pages` with the SDK started with
 * `options` (sending to `baseUrl`, batching for 50 ms unless they say).
 */
export async function openSdkTab(args: {
  engine: Engine;
  engineName: EngineName;
  pages: Map<string, string>;
  site: { origin: string };
  on?: { origin: string };
  baseUrl: string;
  factoryPrefix: string;
  factoryId?: string;
  path: string;
  options?: Record<string, unknown>;
  keyOptions?: { rateLimit?: number };
  extra?: string;
  body?: string;
  /** A script the page runs before it loads the SDK (HELD_WAITS). */
  head?: string;
}): Promise<{ factoryId: string; key: string; page: Tab; url: string }> {
  const factoryId = args.factoryId ?? newFactoryId(args.factoryPrefix);
  const { key } = await issuePublishableKey(factoryId, [args.site.origin], args.keyOptions);
  const path = `/${args.engineName}${args.path}`;
  args.pages.set(path, sdkPage({ key, baseUrl: args.baseUrl, flushDelayMs: 50, ...args.options }, args.extra, args.body, args.head));
  const page = await args.engine.newTab();
  const url = `${(args.on ?? args.site).origin}${path}`;
  await page.goto(url);
  return { factoryId, key, page, url };
}

/** `npm start` on a fixed free port and the run's DynamoDB Local (with `env` besides); `stop()` and `start()` again keep the address. */
export async function localService(env: NodeJS.ProcessEnv = {}) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'contacts-sdk-api-'));
  let run: ReturnType<typeof startScript> | undefined;
  const service = {
    baseUrl: `http://localhost:${port}`,
    /** Its data folder: CONTACTS_DATA_DIR for a command that must find this server (sourcemaps upload). */
    dataDir,
    async start() {
      run = startScript(
        'start',
        { ...env, DYNAMODB_ENDPOINT: endpoint(), PORT: String(port), CONTACTS_DATA_DIR: dataDir },
        /Contacts API listening on http:\/\/localhost:\d+/,
        90_000,
      );
      await run.started;
    },
    async stop() {
      if (!run) return;
      const { child, exited } = run;
      run = undefined;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
    async close() {
      await service.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  await service.start();
  return service;
}

/**
 * A customer's site on `http://localhost:<port>`: scripts from `files` (the
 * SDK's one-file build at /contacts-ingest.min.js), each other path's page
 * from `pages`.
 */
export async function serveSite(files: Record<string, string>, pages: (path: string) => string): Promise<{ origin: string; close(): void }> {
  const server: Server = createServer((req, res) => {
    // A POST is held unanswered until the site closes: the page's own keepalive request that stays in flight.
    if (req.method === 'POST') return;
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const file = files[path];
    if (file !== undefined) {
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' });
      res.end(file);
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(pages(path));
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return {
    origin: `http://localhost:${port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** Keeps what the page writes with console.warn and console.error in `window.consoleSeen`, in every engine alike. */
const CONSOLE_RECORDER = `window.consoleSeen = [];
  ['warn', 'error'].forEach(function (level) {
    var original = console[level];
    console[level] = function () {
      consoleSeen.push({ level: level, text: Array.prototype.map.call(arguments, String).join(' ') });
      return original.apply(console, arguments);
    };
  });`;

/** What the page wrote to the console (console.warn and console.error) so far. */
export const consoleOf = (tab: Tab) => tab.evaluate<{ level: 'warn' | 'error'; text: string }[]>('window.consoleSeen');

/** The SDK's own console lines ([ContactsIngest] …). */
export const sdkConsoleOf = async (tab: Tab) => (await consoleOf(tab)).filter((line) => line.text.startsWith('[ContactsIngest]'));

/**
 * A page that loads the SDK and starts it the documented two-line way
 * (its options kept in `sdkOptions`, for a test that starts it again).
 * `options` go to init() as JSON; `extra` is JavaScript source of more
 * options (functions such as beforeSend, RegExps); `body` is the page's own script;
 * `head` runs before the SDK is loaded.
 */
export function sdkPage(options: Record<string, unknown>, extra = '{}', body = '', head = ''): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>shop</title>
<script>${CONSOLE_RECORDER}</script>
<script>${head}</script>
<script src="/contacts-ingest.min.js"></script>
<script>
  var sdkOptions = Object.assign(${JSON.stringify(options)}, ${extra});
  ContactsIngest.init(sdkOptions);
</script>
</head><body><p>A customer's page.</p><script>${body}</script></body></html>`;
}

/**
 * The waits HELD_WAITS holds: from a second (the least a Retry-After asks;
 * the SDK's other timers are shorter in the pages that use it) to a minute
 * (the longest backoff those pages allow). Longer timers run as set: the
 * WebDriver's own script timeout (two minutes) is one of the page's timers in WebKitGTK.
 */
export const HELD_WAIT_MS = { min: 1000, max: 60_000 };

/**
 * A page script, run before the SDK loads, that holds the page's long
 * waits instead of waiting them out: a timer of HELD_WAIT_MS (the SDK's
 * wait after a 429's Retry-After) runs only when the test calls
 * `pageClock.release()`. The page logs, in its own order, each request it
 * fetches (`fetch`), its answer (`answer`: status and Retry-After), each
 * long wait asked (`wait`, its ms) and run (`ran`): waitsBeforeRetries()
 * reads from that log that each retry came after a wait of the asked
 * length, with no real seconds spent and no wall clock to trust.
 */
export const HELD_WAITS = `window.pageClock = (function () {
  var realSetTimeout = window.setTimeout, realClearTimeout = window.clearTimeout, realFetch = window.fetch;
  var log = [], held = [], nextId = 1e9;
  window.setTimeout = function (run, ms) {
    if (!(Number(ms) >= ${HELD_WAIT_MS.min} && Number(ms) <= ${HELD_WAIT_MS.max})) return realSetTimeout.apply(window, arguments);
    var timer = { id: nextId++, ms: Number(ms), run: run, args: Array.prototype.slice.call(arguments, 2) };
    held.push(timer);
    log.push({ what: 'wait', id: timer.id, ms: timer.ms });
    return timer.id;
  };
  window.clearTimeout = function (id) {
    held = held.filter(function (timer) { return timer.id !== id; });
    return realClearTimeout.apply(window, arguments);
  };
  window.fetch = function () {
    log.push({ what: 'fetch' });
    return realFetch.apply(window, arguments).then(function (res) {
      log.push({ what: 'answer', status: res.status, retryAfter: res.headers.get('Retry-After') });
      return res;
    }, function (error) {
      log.push({ what: 'answer', status: 0, retryAfter: null });
      throw error;
    });
  };
  return {
    log: log,
    /** Runs every long wait held now; answers how many. */
    release: function () {
      var due = held;
      held = [];
      due.forEach(function (timer) {
        log.push({ what: 'ran', id: timer.id });
        timer.run.apply(window, timer.args);
      });
      return due.length;
    }
  };
})();`;

/** What a page under HELD_WAITS logged. */
export type ClockEntry =
  | { what: 'fetch' }
  | { what: 'answer'; status: number; retryAfter: string | null }
  | { what: 'wait'; id: number; ms: number }
  | { what: 'ran'; id: number };

export const clockLogOf = (tab: Tab) => tab.evaluate<ClockEntry[]>('pageClock.log');

/** until() for pages under HELD_WAITS: each check first runs the waits the pages hold, so they pass only when the test lets them. */
export function untilReleased<T>(tabs: Tab[], what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs?: number): Promise<T> {
  return until(
    what,
    async () => {
      for (const tab of tabs) await tab.evaluate('pageClock.release()');
      return check();
    },
    timeoutMs,
  );
}

/**
 * For each request after a page's first: the longest wait (ms) the page
 * asked after the answer to the request before and ran before sending this
 * one; 0 when there was none (the request went without waiting).
 */
export function waitsBeforeRetries(log: ClockEntry[]): number[] {
  const waits: number[] = [];
  let requests = 0;
  let answered = false;
  const asked = new Map<number, number>();
  let ran = 0;
  for (const entry of log) {
    if (entry.what === 'fetch') {
      if (requests > 0) waits.push(ran);
      requests += 1;
      answered = false;
      asked.clear();
      ran = 0;
    } else if (entry.what === 'answer') answered = true;
    else if (entry.what === 'wait' && answered) asked.set(entry.id, entry.ms);
    else if (entry.what === 'ran') ran = Math.max(ran, asked.get(entry.id) ?? 0);
  }
  return waits;
}

/**
 * How often storedWhen reads: each read asks the run's tally for a pass over the stream and queries the factory's
 * reports, DynamoDB Local's CPU that the browser files running beside it need (docs/development.md#where-the-time-goes).
 */
const STORED_READ_EVERY_MS = 250;

/** The events stored for the factory once `done` says they are all there (or throws at the deadline). */
export function storedWhen(factoryId: string, what: string, done: (events: Record<string, any>[]) => boolean, timeoutMs?: number) {
  return until(
    what,
    async () => {
      const events = await storedReports(factoryId);
      return done(events) ? events : undefined;
    },
    timeoutMs,
    STORED_READ_EVERY_MS,
  );
}

/** Events stored with that message. */
export const withMessage = (events: Record<string, any>[], message: string | RegExp) =>
  events.filter((event) => (typeof message === 'string' ? event.message === message : message.test(String(event.message))));

/** One request that reached the API through a recording proxy: its key, path, and status (or "failed": no answer). */
export interface Seen {
  key: string;
  path: string;
  status: number | 'failed';
}

/**
 * A proxy in front of `target` that records every request to the ingest
 * API (by the key in its query) and what became of it: how an engine's page
 * sends is then seen the same way in every engine. When the target is down,
 * or while `cutOff(true)` plays an outage, the connection is dropped: the
 * page sees a network failure, as when the API cannot be reached.
 */
export async function recordingProxy(target: string): Promise<{ baseUrl: string; of(key: string): Seen[]; cutOff(cut: boolean): void; close(): void }> {
  const seen: Seen[] = [];
  let cut = false;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', target);
    const record = (status: number | 'failed') => {
      if (url.pathname.startsWith('/ingest/') && req.method === 'POST') seen.push({ key: url.searchParams.get('key') ?? '', path: url.pathname, status });
    };
    if (cut) {
      record('failed');
      res.destroy();
      return;
    }
    const upstream = request(url, { method: req.method, headers: { ...req.headers, host: url.host } }, (answer) => {
      record(answer.statusCode ?? 0);
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      record('failed');
      res.destroy();
    });
    req.pipe(upstream);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return {
    baseUrl: `http://localhost:${port}`,
    of: (key) => seen.filter((request) => request.key === key),
    cutOff: (value) => {
      cut = value;
    },
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** A request the fake ingest API received: when (ms, this process's clock), its key and events, and when it was answered. */
export interface FakeRequest {
  at: number;
  key: string;
  eventIds: string[];
  answeredAt: number;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text;
}

/**
 * A stand-in for the ingest API that answers every POST /ingest/v1/events
 * with `answer` (status and headers), with the CORS headers the real API
 * sends, and records each request: to put an engine's SDK through answers
 * the real API gives only under load (a storm's 429s).
 */
export async function fakeIngest(
  answer: (key: string) => { status: number; headers?: Record<string, string> },
): Promise<{ baseUrl: string; of(key: string): FakeRequest[]; close(): void }> {
  const received: FakeRequest[] = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const key = url.searchParams.get('key') ?? '';
    const at = performance.now();
    const text = await bodyOf(req);
    let eventIds: string[] = [];
    try {
      eventIds = ((JSON.parse(text) as { events?: { eventId: string }[] }).events ?? []).map((event) => event.eventId);
    } catch {
      // not JSON: recorded without events
    }
    const { status, headers = {} } = answer(key);
    const origin = req.headers.origin ?? '*';
    res.writeHead(status, {
      'Content-Type': 'application/json',
      'Access-Control-Allow-Origin': origin,
      'Access-Control-Expose-Headers': 'Retry-After',
      Vary: 'Origin',
      ...headers,
    });
    res.end(JSON.stringify(status === 429 ? { error: 'Rate limit exceeded (a fake API for the test).' } : { accepted: eventIds.length }));
    received.push({ at, key, eventIds, answeredAt: performance.now() });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return {
    baseUrl: `http://localhost:${port}`,
    of: (key) => received.filter((request) => request.key === key),
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
