import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { freePort } from '../../local/harness/ports';
import { startScript } from '../support/commands';
import { featureRequest, storedReports, validEvent } from '../support/ingest';
import { endpoint, issuePublishableKey, newFactoryId, startLocalApi, type LocalApi } from '../support/local-api';

/**
 * The ingest API in a real browser: headless Chromium (Debian's package,
 * /usr/bin/chromium; .ci/run installs it) loads small pages from two local
 * origins and posts to the running API the way a bug-report widget does:
 * `fetch` with an Authorization header (a preflighted request) and
 * `navigator.sendBeacon` (text/plain, the key in ?key=). The key is bound to
 * the first origin only: the page on the second is refused, and can read why.
 *
 * The API is `npm start` itself (on the run's DynamoDB Local), or under
 * jest.bundle.config.js the synthesized Lambda assets behind the same adapter.
 */
const CHROMIUM = '/usr/bin/chromium';
/** What this machine's Chromium needs to start headless and stay off the network. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** What the page's script puts on its window (see pageHtml). */
interface Widget {
  report(path: string, body: unknown): Promise<{ status: number; body: any; requestId: string | null; retryAfter: string | null }>;
  beacon(body: unknown): boolean;
}

interface Api {
  baseUrl: string;
  close(): Promise<void>;
}

/** `npm start` on free ports, on this run's DynamoDB Local; or the bundled assets. */
async function startApi(): Promise<Api> {
  if (process.env.CONTACTS_API_BUNDLE_DIR) {
    const local: LocalApi = await startLocalApi();
    return { baseUrl: local.baseUrl.replace('127.0.0.1', 'localhost'), close: () => local.close() };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'contacts-browser-'));
  const run = startScript(
    'start',
    { DYNAMODB_ENDPOINT: endpoint(), PORT: String(await freePort()), CONTACTS_DATA_DIR: dataDir },
    /Contacts API listening on (http:\/\/localhost:\d+)/,
    90_000,
  );
  const [, baseUrl] = await run.started;
  return {
    baseUrl: baseUrl as string,
    close: async () => {
      run.child.kill('SIGTERM');
      await run.exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A page whose script knows the API and the key, served at `http://localhost:<port>/`. */
function pageHtml(apiUrl: string, key: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>shop</title></head><body>
<p>A customer's page with a bug-report widget.</p>
<script>
  window.ingest = { api: ${JSON.stringify(apiUrl)}, key: ${JSON.stringify(key)} };
  // What a widget does: fetch with the key in a header (preflighted), reading the answer and its headers.
  window.report = async (path, body) => {
    const res = await fetch(ingest.api + path, {
      method: 'POST',
      keepalive: true,
      headers: { Authorization: 'Bearer ' + ingest.key, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json(), requestId: res.headers.get('X-Request-Id'), retryAfter: res.headers.get('Retry-After') };
  };
  // What an unload handler does: a beacon, text/plain, the key in the query.
  window.beacon = (body) => navigator.sendBeacon(ingest.api + '/ingest/v1/events?key=' + encodeURIComponent(ingest.key), JSON.stringify(body));
</script></body></html>`;
}

/** A server answering every path with the page `html()` gives (known once the key is issued for this server's origin). */
async function servePage(html: () => string): Promise<{ origin: string; server: Server }> {
  const server = createServer((_, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(html());
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return { origin: `http://localhost:${port}`, server };
}

let api: Api;
let context: BrowserContext;
let profile: string;
const pages: Server[] = [];
let factoryId: string;
let allowed: Page;
let foreign: Page;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium; .ci/run does)`);
  api = await startApi();
  factoryId = newFactoryId('browser');
  // Both pages on localhost, on two ports: two origins. The key lists the first only.
  let html = '';
  const first = await servePage(() => html);
  const second = await servePage(() => html);
  pages.push(first.server, second.server);
  html = pageHtml(api.baseUrl, (await issuePublishableKey(factoryId, [first.origin])).key);

  profile = mkdtempSync(join(tmpdir(), 'contacts-chromium-'));
  context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS });
  allowed = await context.newPage();
  await allowed.goto(`${first.origin}/`);
  foreign = await context.newPage();
  await foreign.goto(`${second.origin}/`);
}, 120_000);

afterAll(async () => {
  await context?.close();
  for (const server of pages) server.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  await api?.close();
});

/** Waits (bounded) until the factory has `count` events: a beacon's answer is never seen by the page. */
async function eventsStored(count: number): Promise<Record<string, any>[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = await storedReports(factoryId);
    if (found.length >= count || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

test("a page on the key's origin posts an event with fetch (preflighted) and reads the answer and X-Request-Id", async () => {
  const event = validEvent({ message: 'from fetch' });
  const answer = await allowed.evaluate((body) => (globalThis as unknown as Widget).report('/ingest/v1/events', body), { events: [event] });
  expect(answer).toEqual({ status: 202, body: { accepted: 1, duplicates: 0, rejected: [] }, requestId: expect.any(String), retryAfter: null });
  const stored = await eventsStored(1);
  expect(stored.find((e) => e.eventId === event.eventId)).toMatchObject({
    origin: allowed.url().replace(/\/$/, ''),
    userAgent: expect.stringMatching(/Chrome/),
  });
});

test("a page on the key's origin posts a feature request with fetch: 201, then 200 for the same requestId", async () => {
  const body = featureRequest({ title: 'Dark mode please' });
  const first = await allowed.evaluate((b) => (globalThis as unknown as Widget).report('/ingest/v1/feature-requests', b), body);
  const again = await allowed.evaluate((b) => (globalThis as unknown as Widget).report('/ingest/v1/feature-requests', b), body);
  expect([first.status, first.body.created, again.status, again.body.created]).toEqual([201, true, 200, false]);
});

test('navigator.sendBeacon (text/plain, key in ?key=) stores the event', async () => {
  const event = validEvent({ message: 'from a beacon', type: 'bug_report' });
  const queued = await allowed.evaluate((body) => (globalThis as unknown as Widget).beacon(body), { events: [event] });
  expect(queued).toBe(true);
  const stored = await eventsStored(2);
  expect(stored.find((e) => e.eventId === event.eventId)).toMatchObject({ type: 'bug_report', message: 'from a beacon' });
});

test('a page on another origin is refused with 403, and the page can read the error naming its origin', async () => {
  const answer = await foreign.evaluate((body) => (globalThis as unknown as Widget).report('/ingest/v1/events', body), {
    events: [validEvent({ message: 'foreign' })],
  });
  expect(answer.status).toBe(403);
  expect(answer.body.error).toContain(JSON.stringify(new URL(foreign.url()).origin));
  expect(answer.requestId).toEqual(expect.any(String));
  expect((await storedReports(factoryId)).some((e) => e.message === 'foreign')).toBe(false);
});

test('the page can read every error, e.g. a 422 for an invalid body', async () => {
  const answer = await allowed.evaluate(() => (globalThis as unknown as Widget).report('/ingest/v1/events', { events: [] }));
  expect(answer).toMatchObject({ status: 422, body: { error: expect.stringMatching(/events is empty/) } });
});
