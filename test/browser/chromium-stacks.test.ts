import { tallied } from '../support/tally';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { groupEvent } from '../../lambda/ingest/grouping/fingerprint';
import { DynamoIssueStore } from '../../lambda/infrastructure/store/reports/dynamo-issue-store';
import { freePort } from '../../local/harness/ports';
import { issuePublishableKey, newFactoryId, realIngestDependencies, startLocalHost, tables, testDoc, type LocalApi } from '../support/local-api';

/**
 * The grouping rule on stacks Chromium really writes: headless Chromium
 * (/usr/bin/chromium) loads a page of a shop from two deploys of its bundle
 * (other file hashes, code shifted by other lines), throws errors in it (a
 * TypeError in a nested call, one in an async function, one in a
 * constructor, one in a timer callback), and posts them to the ingest API
 * as an error handler would. The same error from both deploys must be one
 * issue; different errors must not.
 */
const CHROMIUM = '/usr/bin/chromium';
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

/** The shop's bundle; each deploy puts `padding` lines before it (other imports, a banner), so every line number moves. */
const bundle = (padding: number) => `${'// banner\n'.repeat(padding)}
function readCart(cart) { return cart.items.length; }
function renderCart(state) { return readCart(state.cart); }
async function loadTotals() { await Promise.resolve(); const totals = undefined; return totals.sum; }
class Checkout { constructor(config) { this.currency = config.currency.code; } }
function onTick(done) { setTimeout(() => { try { JSON.parse('{oops'); } catch (e) { done(e); } }, 0); }
window.shop = {
  cartError: () => { try { renderCart({}); } catch (e) { return e; } },
  totalsError: () => loadTotals().catch((e) => e),
  checkoutError: () => { try { new Checkout({}); } catch (e) { return e; } },
  timerError: () => new Promise((resolve) => onTick(resolve)),
};`;

const DEPLOYS = [
  { path: '/one/', script: '/assets/app.3f9a1c.js', padding: 0 },
  { path: '/two/', script: '/assets/app-77BB0E12.js?v=2', padding: 7 },
];

let api: LocalApi;
let site: Server;
let origin: string;
let context: BrowserContext;
let profile: string;
let key: string;
const factoryId = newFactoryId('stacks');

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium; .ci/run does)`);
  api = await startLocalHost(realIngestDependencies());
  site = createServer((req, res) => {
    const url = req.url ?? '/';
    const deploy = DEPLOYS.find((d) => url === d.path) ?? DEPLOYS.find((d) => url === d.script);
    if (!deploy) {
      res.writeHead(404).end();
      return;
    }
    if (url === deploy.path) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>shop</title><script src="${deploy.script}"></script>`);
    } else {
      res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(bundle(deploy.padding));
    }
  });
  const port = await freePort();
  await new Promise<void>((resolve) => site.listen(port, '127.0.0.1', () => resolve()));
  origin = `http://localhost:${port}`;
  key = (await issuePublishableKey(factoryId, [origin])).key;
  profile = mkdtempSync(join(tmpdir(), 'contacts-chromium-'));
  context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS });
}, 120_000);

afterAll(async () => {
  await context?.close();
  site?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  await api?.close();
});

type Kind = 'cartError' | 'totalsError' | 'checkoutError' | 'timerError';
const KINDS: Kind[] = ['cartError', 'totalsError', 'checkoutError', 'timerError'];

/** The errors of one deploy, as an error handler reads them: type, message and Chromium's stack text. */
async function capture(page: Page): Promise<Record<Kind, { type: string; value: string; stack: string }>> {
  return page.evaluate(async (kinds) => {
    const shop = Reflect.get(globalThis, 'shop') as Record<string, () => Error | Promise<Error>>;
    const out: Record<string, { type: string; value: string; stack: string }> = {};
    for (const kind of kinds) {
      const error = await shop[kind]!();
      out[kind] = { type: error.name, value: error.message, stack: String(error.stack) };
    }
    return out;
  }, KINDS);
}

/** Posts the errors from the page itself, as a global error handler would. */
async function report(page: Page, errors: Record<Kind, { type: string; value: string; stack: string }>, release: string): Promise<number> {
  return page.evaluate(
    async ({ api: base, key: k, errors: list, release: r }) => {
      const events = Object.values(list).map((exception) => ({
        eventId: crypto.randomUUID(),
        message: `${exception.type}: ${exception.value}`,
        exception,
        release: r,
      }));
      const res = await fetch(`${base}/ingest/v1/events`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${k}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ events }),
      });
      return res.status;
    },
    { api: api.baseUrl.replace('127.0.0.1', 'localhost'), key, errors, release },
  );
}

test("Chromium's stacks of the same errors from two deploys (other hashes, other lines) group alike; different errors apart; and the API counts them so", async () => {
  const captured = [];
  for (const [index, deploy] of DEPLOYS.entries()) {
    const page = await context.newPage();
    await page.goto(`${origin}${deploy.path}`);
    const errors = await capture(page);
    captured.push(errors);
    expect(await report(page, errors, `web@${index + 1}`)).toBe(202);
    await page.close();
  }
  const [one, two] = captured as [Record<Kind, { type: string; value: string; stack: string }>, Record<Kind, { type: string; value: string; stack: string }>];
  // Really Chromium's format, and really another file and other lines in the second deploy.
  expect(one.cartError.stack).toMatch(/\n {4}at readCart \(http:\/\/localhost:\d+\/assets\/app\.3f9a1c\.js:\d+:\d+\)/);
  expect(two.cartError.stack).toMatch(/app-77BB0E12\.js\?v=2:\d+:\d+/);
  expect(two.cartError.stack).not.toBe(one.cartError.stack.replace('app.3f9a1c.js', 'app-77BB0E12.js?v=2'));

  const fingerprints = KINDS.map((kind) => {
    const first = groupEvent({ exception: one[kind] });
    expect(groupEvent({ exception: two[kind] })).toEqual(first);
    expect(first.grouped).toBe(true);
    return JSON.stringify(first.grouped ? first.fingerprint : []);
  });
  expect(new Set(fingerprints).size).toBe(KINDS.length);
  expect(JSON.parse(fingerprints[0] as string)).toEqual([
    'error',
    'TypeError',
    'readCart@/assets/app.js',
    'renderCart@/assets/app.js',
    // V8's `Object.cartError`, named as Firefox and WebKit name it (docs/report-issues.md#one-name-per-frame).
    'cartError@/assets/app.js',
  ]);

  await tallied();
  const issues = await new DynamoIssueStore(testDoc(), tables.reports).listIssues(factoryId, { limit: 10, nowMs: Date.now() });
  expect(issues.map((issue) => [issue.title, issue.count, issue.firstRelease, issue.lastRelease]).sort()).toEqual(
    KINDS.map((kind) => [`${one[kind].type}: ${one[kind].value}`, 2, 'web@1', 'web@2']).sort(),
  );
});
