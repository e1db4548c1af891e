import type { Browser, Page } from 'playwright-core';
import { buildSdk, launchChromium, localService, sdkPage, serveSite, storedWhen, until, watch, withMessage } from '../../support/browser-sdk';
import { storedReports } from '../../support/ingest';
import { issuePublishableKey, newFactoryId } from '../../support/local-api';

/**
 * The browser SDK's transport, in headless Chromium against `npm start`:
 * a key's rate limit (429 + Retry-After) delays events but loses none; the
 * API stopped and started again loses none and stores each once; a batch
 * too big for a beacon is split; a refused origin or key is explained once in
 * the console and stops sending; another 4xx is told once and not retried.
 */
let service: Awaited<ReturnType<typeof localService>>;
let browser: Browser;
let site: Awaited<ReturnType<typeof serveSite>>;
let foreign: Awaited<ReturnType<typeof serveSite>>;
const pages = new Map<string, string>();

beforeAll(async () => {
  const [{ script }, api] = await Promise.all([buildSdk(), localService()]);
  service = api;
  site = await serveSite({ '/contacts-ingest.min.js': script }, (path) => pages.get(path) ?? '');
  foreign = await serveSite({ '/contacts-ingest.min.js': script }, (path) => pages.get(path) ?? '');
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  site?.close();
  foreign?.close();
  await service?.close();
});

interface Opened {
  factoryId: string;
  key: string;
  page: Page;
  seen: ReturnType<typeof watch>;
}

async function openPage(path: string, options: Record<string, unknown> = {}, keyOptions: { rateLimit?: number } = {}, on = site): Promise<Opened> {
  const factoryId = newFactoryId('sdkwire');
  const { key } = await issuePublishableKey(factoryId, [site.origin], keyOptions);
  pages.set(path, sdkPage({ key, baseUrl: service.baseUrl, flushDelayMs: 50, ...options }));
  const page = await browser.newPage();
  const seen = watch(page, service.baseUrl);
  await page.goto(`${on.origin}${path}`);
  return { factoryId, key, page, seen };
}

test('with the key\'s rate limit set low, every event still arrives once the Retry-After wait is over', async () => {
  // 10 a minute: one request now plus a burst of one, then one every 6 s. One event per request: four requests.
  const { factoryId, page, seen } = await openPage('/limited', { maxBatchEvents: 1, flushDelayMs: 0 }, { rateLimit: 10 });
  const ids = (await page.evaluate(`[1, 2, 3, 4].map(function (n) { return ContactsIngest.captureMessage('limited ' + n); })`)) as string[];
  const events = await storedWhen(factoryId, 'all four events', (found) => found.length >= 4, 60_000);
  expect(events.map((event) => event.message).sort()).toEqual(['limited 1', 'limited 2', 'limited 3', 'limited 4']);
  // Refused with 429, then sent again as they were: the same eventIds.
  expect(seen.statuses).toContain(429);
  expect(events.map((event) => event.eventId).sort()).toEqual([...ids].sort());
  expect(await page.evaluate('ContactsIngest.flush(1000)')).toBe(true);
  expect(await storedReports(factoryId)).toHaveLength(4);
  await page.close();
}, 90_000);

test('events queued while the API is stopped arrive once it is started again, each stored once', async () => {
  const { factoryId, page, seen } = await openPage('/outage', { retryBaseMs: 100, retryMaxMs: 400, maxRetries: 1000 });
  await page.evaluate(`ContactsIngest.captureMessage('before the outage')`);
  await storedWhen(factoryId, 'the first event', (found) => found.length === 1);
  await service.stop();
  const ids = (await page.evaluate(`[1, 2, 3].map(function (n) { return ContactsIngest.captureMessage('during the outage ' + n); })`)) as string[];
  // The SDK is retrying: requests fail, more than once.
  await until('failed requests', () => (seen.failed >= 2 ? true : undefined));
  await page.evaluate(`ContactsIngest.captureMessage('still down')`);
  await service.start();
  const events = await storedWhen(factoryId, 'five events', (found) => found.length >= 5, 60_000);
  expect(await page.evaluate('ContactsIngest.flush(30000)')).toBe(true);
  expect((await storedReports(factoryId)).map((event) => event.message).sort()).toEqual(
    ['before the outage', 'during the outage 1', 'during the outage 2', 'during the outage 3', 'still down'].sort(),
  );
  expect(events.length).toBe(5);
  expect(withMessage(events, /^during the outage/).map((event) => event.eventId).sort()).toEqual([...ids].sort());
  await page.close();
}, 150_000);

test('a page on a foreign origin gets the API\'s refusal in the console once, and sends nothing more', async () => {
  const { factoryId, page, seen } = await openPage('/foreign', {}, {}, foreign);
  await page.evaluate(`ContactsIngest.captureMessage('from a foreign site')`);
  const message = await until('the console message', () => seen.console.find((entry) => entry.text.startsWith('[ContactsIngest]')));
  expect(message.type).toBe('error');
  expect(message.text).toContain(`refused this page's origin ${foreign.origin} (403)`);
  expect(message.text).toContain(`Origin ${JSON.stringify(foreign.origin)} is not one of the websites this key was issued for`);
  expect(message.text).toContain(`add ${foreign.origin} to the origins of the key`);
  const requests = seen.requests.length;
  expect(await page.evaluate(`[ContactsIngest.captureMessage('again'), ContactsIngest.captureException(new Error('and again'))]`)).toEqual(['', '']);
  expect(await page.evaluate('ContactsIngest.flush(1000)')).toBe(true);
  expect(seen.requests.length).toBe(requests);
  expect(seen.console.filter((entry) => entry.text.startsWith('[ContactsIngest]'))).toHaveLength(1);
  expect(await storedReports(factoryId)).toEqual([]);
  await page.close();
});

test('a wrong key is explained once in the console, with the API\'s words and what to do', async () => {
  const { page, seen } = await openPage('/wrong-key', {});
  await page.evaluate(`ContactsIngest.init(Object.assign({}, sdkOptions, { key: 'dfpk_not_a_real_key' }))`);
  await page.evaluate(`ContactsIngest.captureMessage('with a wrong key'); ContactsIngest.captureMessage('twice')`);
  const message = await until('the console message', () => seen.console.find((entry) => entry.text.startsWith('[ContactsIngest]')));
  expect(message.text).toMatch(/refused the key \(401\): Unknown API key: .* Pass init\(\) the publishable key \(dfpk_…\) issued for this website/);
  expect(await page.evaluate('ContactsIngest.flush(1000)')).toBe(true);
  expect(seen.console.filter((entry) => entry.text.startsWith('[ContactsIngest]'))).toHaveLength(1);
  await page.close();
});

test('another 4xx (an event the API finds invalid: 422) is told once in the console and never retried', async () => {
  const { factoryId, page, seen } = await openPage('/invalid', {});
  const tooManyTags = JSON.stringify(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`t${i}`, 'x'])));
  await page.evaluate(`ContactsIngest.captureMessage('too many tags', { tags: ${tooManyTags} })`);
  expect(await page.evaluate('ContactsIngest.flush(10000)')).toBe(true);
  await page.evaluate(`ContactsIngest.captureMessage('also too many tags', { tags: ${tooManyTags} })`);
  expect(await page.evaluate('ContactsIngest.flush(10000)')).toBe(true);
  expect(seen.statuses).toEqual([422, 422]);
  const told = seen.console.filter((entry) => entry.text.startsWith('[ContactsIngest]'));
  expect(told).toEqual([{ type: 'warning', text: expect.stringMatching(/^\[ContactsIngest\] The ingest API answered 422: .*tags has 51 entries.* These events were dropped, not retried\.$/) }]);
  // The SDK still works for valid events.
  await page.evaluate(`ContactsIngest.captureMessage('valid')`);
  expect(await page.evaluate('ContactsIngest.flush(10000)')).toBe(true);
  expect(withMessage(await storedReports(factoryId), 'valid')).toHaveLength(1);
  await page.close();
});

test('when the page is hidden, pending events go by sendBeacon; a batch the browser refuses is split, and every event arrives once', async () => {
  const { factoryId, page, seen } = await openPage('/hidden', { flushDelayMs: 60_000 });
  await page.evaluate(`(function () {
    window.beacons = [];
    var send = navigator.sendBeacon.bind(navigator);
    navigator.sendBeacon = function (url, body) { var ok = send(url, body); beacons.push({ bytes: body.length, ok: ok, keyInQuery: new URL(url).searchParams.has('key') }); return ok; };
    // The page's own keepalive request, still in flight, holds 40 KB of the browser's 64 KiB budget...
    fetch('/analytics', { method: 'POST', keepalive: true, body: 'x'.repeat(40000) });
    // ...when 10 events of 3 KB (30 KB: one request) wait for the batch delay, and the tab goes to the background.
    for (var i = 1; i <= 10; i++) ContactsIngest.captureMessage('hidden ' + i + ' ' + 'x'.repeat(3000));
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  })()`);
  const events = await storedWhen(factoryId, 'ten events', (found) => found.length >= 10);
  const beacons = (await page.evaluate('beacons')) as { bytes: number; ok: boolean; keyInQuery: boolean }[];
  // The whole batch was refused, then its halves tried in turn; some halves went (the rest by fetch). Few
  // requests in all: the API allows a burst of 7 a minute from one address and key, and a beacon's 429 is never seen.
  expect(beacons[0]).toMatchObject({ ok: false });
  expect(beacons[0]?.bytes).toBeGreaterThan(10 * 3000);
  expect(beacons[1]?.bytes).toBeLessThan(beacons[0]?.bytes ?? 0);
  expect(beacons.some((beacon) => beacon.ok)).toBe(true);
  expect(beacons.every((beacon) => beacon.keyInQuery)).toBe(true);
  expect(await page.evaluate('ContactsIngest.flush(10000)')).toBe(true);
  expect(new Set(events.map((event) => event.message)).size).toBe(10);
  expect(await storedReports(factoryId)).toHaveLength(10);
  expect(seen.statuses.every((status) => status === 202)).toBe(true);
  await page.close();
});
