import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';
import { freePort } from '../../local/ports';
import { runScript, startScript } from './commands';
import { storedReports } from './ingest';
import { endpoint } from './local-api';

/**
 * What the browser SDK's tests share (test/browser/sdk/): the one-file build
 * made by `npm run sdk:build`, `npm start` on the run's DynamoDB Local (able
 * to stop and start again on the same port), customer sites served from
 * localhost origins, headless Chromium (/usr/bin/chromium), and waits for
 * conditions with deadlines.
 */
export const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}

/** `npm run sdk:build -- --out <tmp>`: the files of the package's dist/, by name. */
export async function buildSdk(): Promise<{ script: string; esm: string }> {
  const out = mkdtempSync(join(tmpdir(), 'contacts-sdk-build-'));
  try {
    const run = await runScript('sdk:build', ['--out', out]);
    if (run.status !== 0) throw new Error(`npm run sdk:build failed:\n${run.stdout}${run.stderr}`);
    return { script: readFileSync(join(out, 'contacts-ingest.min.js'), 'utf8'), esm: readFileSync(join(out, 'index.js'), 'utf8') };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** `npm start` on a fixed free port and the run's DynamoDB Local; `stop()` and `start()` again keep the address. */
export async function localService() {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'contacts-sdk-api-'));
  let run: ReturnType<typeof startScript> | undefined;
  const service = {
    baseUrl: `http://localhost:${port}`,
    async start() {
      run = startScript('start', { DYNAMODB_ENDPOINT: endpoint(), PORT: String(port), CONTACTS_DATA_DIR: dataDir }, /Contacts API listening on http:\/\/localhost:\d+/, 90_000);
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

/**
 * A page that loads the SDK and starts it the documented two-line way
 * (its options kept in `sdkOptions`, for a test that starts it again).
 * `options` go to init() as JSON; `extra` is JavaScript source of more
 * options (functions such as beforeSend, RegExps); `body` is the page's own script.
 */
export function sdkPage(options: Record<string, unknown>, extra = '{}', body = ''): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>shop</title>
<script src="/contacts-ingest.min.js"></script>
<script>
  var sdkOptions = Object.assign(${JSON.stringify(options)}, ${extra});
  ContactsIngest.init(sdkOptions);
</script>
</head><body><p>A customer's page.</p><script>${body}</script></body></html>`;
}

/** Waits for `check` to return a value other than undefined, or throws naming `what` at the deadline. */
export async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The events stored for the factory once `done` says they are all there (or throws at the deadline). */
export function storedWhen(factoryId: string, what: string, done: (events: Record<string, any>[]) => boolean, timeoutMs?: number) {
  return until(what, async () => {
    const events = await storedReports(factoryId);
    return done(events) ? events : undefined;
  }, timeoutMs);
}

/** Events stored with that message. */
export const withMessage = (events: Record<string, any>[], message: string | RegExp) =>
  events.filter((event) => (typeof message === 'string' ? event.message === message : message.test(String(event.message))));

/** What the page sends to the ingest API and writes to the console, recorded as it happens. */
export function watch(page: Page, baseUrl: string) {
  const seen = { requests: [] as { url: string; type: string }[], statuses: [] as number[], failed: 0, console: [] as { type: string; text: string }[] };
  page.on('request', (request) => {
    if (request.url().startsWith(`${baseUrl}/ingest/`) && request.method() === 'POST') seen.requests.push({ url: request.url(), type: request.resourceType() });
  });
  page.on('response', (response) => {
    if (response.url().startsWith(`${baseUrl}/ingest/`) && response.request().method() === 'POST') seen.statuses.push(response.status());
  });
  page.on('requestfailed', (request) => {
    if (request.url().startsWith(`${baseUrl}/ingest/`)) seen.failed += 1;
  });
  page.on('console', (message: ConsoleMessage) => seen.console.push({ type: message.type(), text: message.text() }));
  return seen;
}
