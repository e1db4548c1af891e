import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import puppeteer, { type Browser as FirefoxBrowser, type Page as FirefoxPage } from 'puppeteer-core';
import { freePort } from '../../local/harness/ports';
import { FIREFOX } from '../../tools/browsers/programs';
import { HOSTILE, seedDemo, type Demo } from '../../tools/control-room/demo-data';
import { startScript } from '../support/commands';
import { endpoint, newFactoryId, tables, testDoc } from '../support/local-api';

/**
 * The control room in a real browser: headless Chromium (/usr/bin/chromium)
 * drives `npm run control-room` on the store of an `npm start` (both on this
 * run's DynamoDB Local), seeded through the contacts and ingest APIs with
 * demo data, hostile text included. The flows a person runs, then what an
 * attacker would try from the same browser; then, in Firefox ESR, what an
 * engine decides for itself: the cookie, the CSP, the forms, the refusal of
 * another site's post.
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

type Run = ReturnType<typeof startScript>;
let api: Run;
let room: Run;
let dataDir: string;
let profile: string;
let context: BrowserContext;
let page: Page;
let demo: Demo;
let base: string;
let login: string;
let mail: string;
let foreign: Server;
let foreignOrigin: string;
/** What the tests read inside the page (this project compiles without the DOM library). */
interface InPage {
  document: {
    cookie: string;
    documentElement: { scrollWidth: number };
    activeElement: { textContent: string | null; id: string } | null;
    getElementById(id: string): { submit(): void } | null;
  };
  navigator: { clipboard: { readText(): Promise<string> } };
}

/** What the browser reported: CSP refusals, script errors. */
const problems: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium; .ci/run does)`);
  dataDir = mkdtempSync(join(tmpdir(), 'contacts-room-'));
  api = startScript(
    'start',
    { DYNAMODB_ENDPOINT: endpoint(), PORT: String(await freePort()), CONTACTS_DATA_DIR: dataDir },
    /Contacts API listening on (http:\/\/localhost:\d+)/,
    90_000,
  );
  const [, apiUrl] = await api.started;
  mail = `${randomBytes(4).toString('hex')}.example`;
  demo = await seedDemo({ apiUrl: apiUrl as string, doc: testDoc(), tables, factoryId: newFactoryId('room'), hostile: true, mailDomain: mail });
  room = startScript('control-room', { DYNAMODB_ENDPOINT: endpoint() }, /Control room: open (http:\/\/127\.0\.0\.1:\d+)(\/login\?token=\S+)/, 60_000, [
    '--port',
    String(await freePort()),
  ]);
  const [, origin, loginPath] = await room.started;
  base = origin as string;
  login = loginPath as string;

  // A page of another site on another local port, in the same browser: what it tries must not act.
  const port = await freePort();
  foreignOrigin = `http://127.0.0.1:${port}`;
  foreign = createServer((_, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><title>elsewhere</title><form id="f" method="post" action="${base}/api/operation" enctype="text/plain"><input name='{"operation":"keys.create","factoryId":"${demo.factoryId}","x":"' value='"}'></form>`,
    );
  });
  await new Promise<void>((resolve) => foreign.listen(port, '127.0.0.1', () => resolve()));

  profile = mkdtempSync(join(tmpdir(), 'contacts-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    acceptDownloads: true,
    timezoneId: 'America/New_York',
    viewport: { width: 1280, height: 900 },
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  page = await context.newPage();
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${base}${login}`);
}, 180_000);

afterAll(async () => {
  await context?.close();
  foreign?.close();
  for (const run of [room, api]) {
    if (run && run.child.exitCode === null) {
      run.child.kill('SIGTERM');
      await run.exited;
    }
  }
  if (profile) rmSync(profile, { recursive: true, force: true });
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

const fac = () => demo.factoryId;
const email = (user: string) => `${user}@${mail}`;
const contactOf = (user: string) => demo.contacts.find((contact) => contact.email === email(user)) as Record<string, string>;
/** The lines of a message region (one paragraph each). */
const linesOf = async (selector: string) => page.locator(`${selector} p`).allInnerTexts();
const flash = () => linesOf('#flash');

test('the printed URL signs the browser in with an HttpOnly cookie and leaves no secret in the address bar', async () => {
  expect(page.url()).toBe(`${base}/`);
  const cookies = await context.cookies(base);
  expect(cookies).toEqual([expect.objectContaining({ httpOnly: true, sameSite: 'Strict' })]);
  expect(await page.evaluate(() => (globalThis as unknown as InPage).document.cookie)).toBe('');
});

test('find a contact by email from the contacts page', async () => {
  await page.goto(`${base}/f/${fac()}/contacts`);
  expect(await page.locator('table.list tbody tr').count()).toBe(demo.contacts.length);
  await page.fill('#find', email('ada.lovelace').toUpperCase());
  await page.press('#find', 'Enter');
  await page.waitForURL(`${base}/f/${fac()}/contacts/${contactOf('ada.lovelace').id}`);
  expect(await page.locator('h1').innerText()).toBe(email('ada.lovelace'));
});

test("times show in the operator's time zone, the UTC value on hover", async () => {
  const updated = page.locator('#contact-fields tr[data-field="updatedAt"] time');
  const iso = (await updated.getAttribute('datetime')) as string;
  expect(await updated.getAttribute('title')).toBe(`${iso} (UTC)`);
  expect(await updated.innerText()).toBe(new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'America/New_York' }));
});

test('clear a field with a reason: confirmed in the page, the answer shown, the history keeps it', async () => {
  await page.goto(`${base}/f/${fac()}/contacts/${contactOf('ada.lovelace').id}`);
  await page.check('input[name="field"][value="title"]');
  await page.check('input[name="field"][value="phone"]');
  await page.fill('#clear-reason', 'ticket 4711: customer asked');
  await page.click('#clear-form button[type="submit"]');
  expect(await page.locator('#clear-confirm-text').innerText()).toMatch(/^Clear title, phone of this contact\?/);
  await page.click('#clear-yes');
  await page.waitForSelector('#flash:not([hidden])');
  expect(await flash()).toEqual(['Cleared: title.', 'Already empty: phone.', 'Changed meanwhile (kept): none.']);
  const row = page.locator('#cleared tbody tr', { hasText: 'title' });
  expect(await row.innerText()).toContain('Head of Engines');
  expect(await row.innerText()).toContain('ticket 4711: customer asked');
  expect(await page.locator('#contact-fields tr[data-field="title"]').count()).toBe(0);
});

test("refresh a contact's enrichment: what was found, applied, ignored, and whether it was billed", async () => {
  await page.goto(`${base}/f/${fac()}/contacts/${contactOf('grace.hopper').id}`);
  await page.click('#refresh');
  await page.waitForSelector('#flash:not([hidden])');
  // The contact had a name: what a source found for it is not applied.
  expect(await flash()).toEqual([
    'Refresh: enriched.',
    'Found: name "Grace Hopper", title "Rear Admiral", location "Arlington, VA".',
    'Applied: title, location.',
    'Ignored (cleared before): none.',
    'Billed: yes.',
  ]);
  expect(await page.locator('#contact-fields tr[data-field="title"] td').innerText()).toBe('Rear Admiral');
  expect(await page.locator('section', { hasText: 'What the last pass found' }).innerText()).toMatch(/location\s+Arlington, VA\s+yes/);
});

test("an operation's error is shown in the page in the operation's words", async () => {
  await page.goto(`${base}/f/${fac()}/contacts/ct_0123456789abcdef`);
  expect(await page.locator('.error').innerText()).toBe(`Not found: no contact ct_0123456789abcdef in ${fac()}`);
});

test("a bulk run goes to the end: the bar follows the run's cursor, the summary shows, the chart counts the billed passes", async () => {
  await page.goto(`${base}/f/${fac()}/enrichment`);
  await page.click('#bulk-start');
  await page.waitForSelector('#bulk-summary[data-done="true"]', { timeout: 60_000 });
  expect(await page.locator('#bulk-bar').getAttribute('value')).toBe('1');
  const [done, counts] = await linesOf('#bulk-summary');
  expect(done).toMatch(/^Done in [\d.]+ s\.$/);
  expect(counts).toMatch(new RegExp(`^${demo.contacts.length} seen, \\d+ skipped, \\d+ enriched, \\d+ complete, \\d+ misses, \\d+ billed\\.$`));
  await page.reload();
  expect(await page.locator('.chart svg').getAttribute('aria-label')).toMatch(/^Billed passes per month: \d{4}-\d{2}: \d+$/);
});

test('export downloads every contact as CSV, streamed', async () => {
  await page.goto(`${base}/f/${fac()}/export`);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
  expect(download.suggestedFilename()).toBe(`${fac()}-contacts.csv`);
  const lines = readFileSync((await download.path()) as string, 'utf8')
    .split('\r\n')
    .filter(Boolean);
  expect(lines[0]).toMatch(/^id,factoryId,email,/);
  expect(lines).toHaveLength(demo.contacts.length + 1);
});

test('create a secret key: shown once with a copy button; then revoke it after confirming', async () => {
  await page.goto(`${base}/f/${fac()}/keys`);
  await page.click('#create-key button[type="submit"]');
  await page.waitForSelector('#new-secret:not([hidden])');
  const secret = await page.locator('#secret-value').innerText();
  expect(secret).toMatch(/^dfsk_/);
  await page.click('#copy-secret');
  // The copy is asynchronous (the clipboard API): wait for the page to say how it went, then check what it said.
  const copyState = page.locator('#copy-state');
  await copyState.filter({ hasText: /\S/ }).waitFor();
  expect(await copyState.innerText()).toBe('Copied.');
  expect(await page.evaluate(() => (globalThis as unknown as InPage).navigator.clipboard.readText())).toBe(secret);
  const keyId = /Created (key_[0-9a-f]{16})/.exec(await page.locator('#create-result').innerText())?.[1] as string;
  await page.click('#secret-done');
  await page.waitForSelector(`tr[data-key-id="${keyId}"]`);
  expect(await page.content()).not.toContain(secret);

  await page.click(`button.revoke[data-key-id="${keyId}"]`);
  expect(await page.locator('#revoke-text').innerText()).toMatch(new RegExp(`^Revoke ${keyId} `));
  await page.click('#revoke-yes');
  await page.waitForSelector('#flash:not([hidden])');
  expect(await flash()).toEqual([`Revoked ${keyId}.`]);
  expect(await page.locator(`tr[data-key-id="${keyId}"]`).innerText()).toContain('revoked');
});

test('an exposed key stands out in the list', async () => {
  await page.goto(`${base}/f/${fac()}/keys`);
  expect(await page.locator('tr.exposed').count()).toBe(1);
  expect(await page.locator('tr.exposed .badge').innerText()).toMatch(/exposed/i);
});

test('the reports page opens on the issues; resolving one from its page shows it resolved and takes it off the open list', async () => {
  await page.goto(`${base}/f/${fac()}/reports`);
  expect(page.url()).toBe(`${base}/f/${fac()}/reports/issues`);
  await page.click('#issues a:text("TypeError: Cannot read properties")');
  await page.waitForURL(/\/reports\/issues\/iss_[0-9a-f]{20}$/);
  // The button is enabled once the page's script has wired it; the click then reloads the page with its flash.
  await page.click('#issue-actions button:text("Resolve")');
  await page.locator('#flash p').first().waitFor();
  expect((await flash())[0]).toMatch(/^Issue iss_[0-9a-f]{20} was open, is now resolved\.$/);
  expect(await page.locator('#issue-actions button').allInnerTexts()).toEqual(['Ignore', 'Reopen']);
  await page.goto(`${base}/f/${fac()}/reports/issues`);
  expect(await page.locator('#issues').innerText()).not.toContain('TypeError: Cannot read properties');
  await page.goto(`${base}/f/${fac()}/reports/issues?status=resolved`);
  expect(await page.locator('#issues').innerText()).toContain('TypeError: Cannot read properties');
});

test('open an event: its message, exception and stack as readable text', async () => {
  await page.goto(`${base}/f/${fac()}/reports/events`);
  await page.click('#events a:text("TypeError: Cannot read properties")');
  expect(await page.locator('#event-exception').innerText()).toBe("TypeError: Cannot read properties of undefined (reading 'email')");
  expect(await page.locator('#event-stack').innerText()).toContain('\n    at renderContact (https://app.example.com/assets/contacts.js:118:23)');
});

test('hostile text shows as text on every page and never runs; the browser reports no CSP refusal', async () => {
  const paths = [
    `/f/${fac()}/contacts`,
    `/f/${fac()}/contacts/${demo.hostileContactId}`,
    `/f/${fac()}/companies`,
    `/f/${fac()}/reports/events`,
    `/f/${fac()}/reports/events/${demo.hostileEventId}`,
    `/f/${fac()}/reports/feature-requests`,
    `/f/${fac()}/keys`,
    `/f/${fac()}/enrichment`,
  ];
  for (const path of paths) {
    await page.goto(`${base}${path}`);
    expect([path, await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)]).toEqual([path, undefined]);
  }
  await page.goto(`${base}/f/${fac()}/contacts/${demo.hostileContactId}`);
  expect(await page.locator('#contact-fields tr[data-field="name"] td').innerText()).toBe(HOSTILE.name);
  expect(await page.locator('#contact-fields tr[data-field="title"] td').innerText()).toBe(HOSTILE.title);
  await page.goto(`${base}/f/${fac()}/reports/events/${demo.hostileEventId}`);
  expect(await page.locator('#event-stack').innerText()).toBe(HOSTILE.stack);
  expect(problems).toEqual([]);
});

test('a page on another local port cannot make the control room act: its form post and its fetch are refused', async () => {
  const keys = async () =>
    (
      await page.request
        .post(`${base}/api/operation`, {
          headers: { origin: base, 'x-csrf-token': await csrf(), 'content-type': 'application/json' },
          data: { operation: 'keys.list', factoryId: fac() },
        })
        .then((r) => r.json())
    ).keys.length;
  const before = await keys();
  const other = await context.newPage();
  await other.goto(`${foreignOrigin}/`);
  // A fetch that would need CORS (no CORS headers: blocked), and one in no-cors mode (its answer blocked by CORP).
  const fetched = await other.evaluate(async (url) => {
    const body = JSON.stringify({ operation: 'keys.create', factoryId: 'x' });
    const cors = await fetch(url, { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body }).then(
      (r) => r.status,
      () => 'blocked',
    );
    const blind = await fetch(url, { method: 'POST', mode: 'no-cors', credentials: 'include', body }).then(
      (r) => r.type,
      () => 'blocked',
    );
    return { cors, blind };
  }, `${base}/api/operation`);
  expect(fetched).toEqual({ cors: 'blocked', blind: 'blocked' });
  const [answer] = await Promise.all([
    other.waitForResponse(`${base}/api/operation`),
    other.evaluate(() => (globalThis as unknown as InPage).document.getElementById('f')?.submit()),
  ]);
  expect(answer.status()).toBe(403);
  await other.close();
  expect(await keys()).toBe(before);
});

/** The CSRF token of the app's pages (what its own scripts send). */
async function csrf(): Promise<string> {
  return (await page.locator('meta[name="csrf-token"]').getAttribute('content')) as string;
}

test('a page on another local port cannot start an export by a plain GET: the browser says another page started it, and the control room refuses it', async () => {
  const other = await context.newPage();
  await other.goto(`${foreignOrigin}/`);
  const exportUrl = `${base}/f/${fac()}/export/contacts.csv`;
  // A link followed from the other port's page: SameSite lets the cookie go along (same site), Sec-Fetch-Site tells.
  const [answer] = await Promise.all([
    other.waitForResponse(exportUrl),
    other.evaluate((url) => {
      (globalThis as unknown as { location: { href: string } }).location.href = url;
    }, exportUrl),
  ]);
  expect(await answer.request().headerValue('sec-fetch-site')).toBe('same-site');
  expect(answer.status()).toBe(403);
  expect(answer.headers()['content-disposition']).toBeUndefined();
  await other.close();
});

test("readable at a phone's width: nothing but the tables scrolls sideways", async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of [
    `/f/${fac()}/contacts`,
    `/f/${fac()}/contacts/${contactOf('ada.lovelace').id}`,
    `/f/${fac()}/keys`,
    `/f/${fac()}/reports/events/${demo.hostileEventId}`,
  ]) {
    await page.goto(`${base}${path}`);
    expect([path, await page.evaluate(() => (globalThis as unknown as InPage).document.documentElement.scrollWidth)]).toEqual([path, 390]);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
});

test('keyboard: the first Tab reaches the skip link, and the actions are buttons and links in the tab order', async () => {
  await page.goto(`${base}/f/${fac()}/contacts/${contactOf('grace.hopper').id}`);
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => (globalThis as unknown as InPage).document.activeElement?.textContent)).toBe('Skip to content');
  await page.focus('#refresh');
  expect(await page.evaluate(() => (globalThis as unknown as InPage).document.activeElement?.id)).toBe('refresh');
  expect(await page.locator('[tabindex]:not([tabindex="-1"]):not([tabindex="0"])').count()).toBe(0);
});

describe('in Firefox ESR', () => {
  let firefox: FirefoxBrowser;
  let tab: FirefoxPage;

  beforeAll(async () => {
    firefox = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
    tab = await firefox.newPage();
    // Every document records the CSP violations the engine reports to it, before the page's own scripts run.
    await tab.evaluateOnNewDocument(
      `window.cspViolations = []; addEventListener('securitypolicyviolation', function (event) { cspViolations.push(event.violatedDirective + ' ' + event.blockedURI); });`,
    );
    await tab.goto(`${base}${login}`);
  }, 60_000);

  afterAll(() => firefox?.close());

  /** The CSRF token of the page the tab shows. */
  const firefoxCsrf = () => tab.$eval('meta[name="csrf-token"]', (meta) => meta.getAttribute('content') as string);
  const keyCount = async () => {
    const answer = await tab.evaluate(
      `fetch('/api/operation', { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': ${JSON.stringify(await firefoxCsrf())} }, body: JSON.stringify({ operation: 'keys.list', factoryId: ${JSON.stringify(fac())} }) }).then(function (r) { return r.json(); })`,
    );
    return (answer as { keys: unknown[] }).keys.length;
  };

  test('the printed URL signs Firefox in with an HttpOnly, SameSite=Strict cookie its scripts cannot read', async () => {
    expect(tab.url()).toBe(`${base}/`);
    expect(await tab.cookies()).toEqual([expect.objectContaining({ httpOnly: true, sameSite: 'Strict' })]);
    expect(await tab.evaluate('document.cookie')).toBe('');
  });

  test('hostile text shows as text on every page and never runs, and Firefox reports no CSP violation', async () => {
    for (const path of [
      `/f/${fac()}/contacts/${demo.hostileContactId}`,
      `/f/${fac()}/reports/events/${demo.hostileEventId}`,
      `/f/${fac()}/keys`,
      `/f/${fac()}/enrichment`,
    ]) {
      await tab.goto(`${base}${path}`);
      expect([path, await tab.evaluate('[typeof window.__pwned, window.cspViolations]')]).toEqual([path, ['undefined', []]]);
    }
    await tab.goto(`${base}/f/${fac()}/contacts/${demo.hostileContactId}`);
    expect(await tab.$eval('#contact-fields tr[data-field="name"] td', (cell) => cell.textContent)).toBe(HOSTILE.name);
    // The policy is enforced, and the recorder sees it: an inline script added to the page does not run and is reported.
    await tab.evaluate(`document.body.appendChild(Object.assign(document.createElement('script'), { textContent: 'window.__pwned = 1' })); null`);
    await tab.waitForFunction('window.cspViolations.length > 0');
    expect(await tab.evaluate('[typeof window.__pwned, window.cspViolations[0]]')).toEqual(['undefined', expect.stringMatching(/^script-src(-elem)? inline$/)]);
  });

  test("the keys page's forms: create a secret key, shown once; revoke it after confirming", async () => {
    await tab.goto(`${base}/f/${fac()}/keys`);
    await tab.click('#create-key button[type="submit"]');
    await tab.waitForSelector('#new-secret:not([hidden])');
    expect(await tab.$eval('#secret-value', (value) => value.textContent)).toMatch(/^dfsk_/);
    const keyId = /Created (key_[0-9a-f]{16})/.exec((await tab.$eval('#create-result', (result) => result.textContent)) ?? '')?.[1] as string;
    await tab.click('#secret-done');
    await tab.waitForSelector(`tr[data-key-id="${keyId}"]`);
    await tab.click(`button.revoke[data-key-id="${keyId}"]`);
    await tab.click('#revoke-yes');
    await tab.waitForSelector('#flash:not([hidden])');
    expect(await tab.$$eval('#flash p', (lines) => lines.map((line) => line.textContent))).toEqual([`Revoked ${keyId}.`]);
    expect(await tab.evaluate('window.cspViolations')).toEqual([]);
  });

  test('a page on another local port cannot make the control room act from Firefox: its form post is refused', async () => {
    await tab.goto(`${base}/f/${fac()}/keys`);
    const before = await keyCount();
    const other = await firefox.newPage();
    await other.goto(`${foreignOrigin}/`);
    const [answer] = await Promise.all([other.waitForNavigation(), other.evaluate(`document.getElementById('f').submit()`)]);
    expect(answer?.status()).toBe(403);
    await other.close();
    expect(await keyCount()).toBe(before);
  });
});
