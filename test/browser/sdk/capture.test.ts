import type { Browser, Page } from 'playwright-core';
import { buildSdk, launchChromium, localService, sdkPage, serveSite, storedWhen, until, withMessage } from '../../support/browser-sdk';
import { storedReports } from '../../support/ingest';
import { issuePublishableKey, newFactoryId } from '../../support/local-api';

/**
 * The browser SDK's capture, in headless Chromium against `npm start`: what
 * a page throws, rejects, captures and submits is stored once, with the
 * stack as the browser wrote it; a cross-origin "Script error." is not; the
 * page's own handlers keep working; and what is pending when the page
 * navigates away or closes still arrives (by sendBeacon).
 */
let service: Awaited<ReturnType<typeof localService>>;
let browser: Browser;
let site: Awaited<ReturnType<typeof serveSite>>;
let other: Awaited<ReturnType<typeof serveSite>>;
const pages = new Map<string, string>();

beforeAll(async () => {
  const [{ script }, api] = await Promise.all([buildSdk(), localService()]);
  service = api;
  site = await serveSite({ '/contacts-ingest.min.js': script }, (path) => pages.get(path) ?? '<!doctype html><p>next page</p>');
  // A script on another origin that throws: without CORS the page only learns "Script error.".
  other = await serveSite({ '/widget.js': 'setTimeout(function () { throw new Error("secret detail of another origin"); });' }, () => '');
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  site?.close();
  other?.close();
  await service?.close();
});

/** A factory with a key for the site, and a page of the site at `path` started with `options`. */
async function openPage(path: string, options: Record<string, unknown> = {}, extra?: string, body?: string): Promise<{ factoryId: string; page: Page }> {
  const factoryId = newFactoryId('sdk');
  const { key } = await issuePublishableKey(factoryId, [site.origin]);
  pages.set(path, sdkPage({ key, baseUrl: service.baseUrl, flushDelayMs: 50, ...options }, extra, body));
  const page = await browser.newPage();
  await page.goto(`${site.origin}${path}`);
  return { factoryId, page };
}

test('a thrown error, an unhandled rejection, a non-Error rejection, a captureMessage and a feature request each arrive once', async () => {
  const scenario = `function scenario() {
    setTimeout(function checkout() { throw new TypeError('cart is undefined'); });
    Promise.reject(new RangeError('page out of range'));
    Promise.reject({ code: 42 });
    ContactsIngest.captureMessage('checkout opened');
  }`;
  const options = { release: 'web@1.4.2', tags: { plan: 'pro' }, reporter: { email: 'ada@example.com', name: 'Ada' } };
  const { factoryId, page } = await openPage('/all', options, undefined, scenario);
  await page.evaluate('scenario()');
  const answer = await page.evaluate(`ContactsIngest.submitFeatureRequest({ title: 'Dark mode please', category: 'ui' })`);
  expect(answer).toMatchObject({ ok: true, status: 201, created: true, featureRequest: { title: 'Dark mode please' } });

  const events = await storedWhen(factoryId, 'four events', (found) => found.length >= 4);
  expect(withMessage(events, 'TypeError: cart is undefined')).toEqual([
    expect.objectContaining({
      type: 'error',
      exception: { type: 'TypeError', value: 'cart is undefined', stack: expect.stringMatching(/^TypeError: cart is undefined\n\s+at checkout \(http:\/\/localhost:\d+\/all:/) },
      pageUrl: `${site.origin}/all`,
      release: 'web@1.4.2',
      tags: { plan: 'pro' },
      reporter: { email: 'ada@example.com', name: 'Ada' },
    }),
  ]);
  expect(withMessage(events, 'Unhandled promise rejection: RangeError: page out of range')).toHaveLength(1);
  expect(withMessage(events, 'Unhandled promise rejection: {"code":42}')).toEqual([
    expect.objectContaining({ exception: { type: 'UnhandledRejection', value: '{"code":42}' } }),
  ]);
  expect(withMessage(events, 'checkout opened')).toEqual([expect.objectContaining({ type: 'message' })]);
  // Nothing more comes: everything sent is flushed, and the store still holds exactly those four.
  expect(await page.evaluate('ContactsIngest.flush(10000)')).toBe(true);
  expect(await storedReports(factoryId)).toHaveLength(4);
  const requests = await storedReports(factoryId, 'feature-requests');
  expect(requests).toEqual([expect.objectContaining({ title: 'Dark mode please', category: 'ui', pageUrl: `${site.origin}/all` })]);
  await page.close();
});

test('the page\'s own window.onerror and error listeners still run beside the SDK\'s', async () => {
  const own = `window.seen = []; window.onerror = function (message) { seen.push('onerror ' + message); };
    addEventListener('error', function (event) { seen.push('listener ' + event.error.message); });
    addEventListener('unhandledrejection', function (event) { seen.push('rejection ' + event.reason.message); });`;
  const { factoryId, page } = await openPage('/own-handlers', {}, undefined, own);
  await page.evaluate(`setTimeout(function () { throw new Error('both see me'); }); void Promise.reject(new Error('both see this too'))`);
  await storedWhen(factoryId, 'both events', (found) => found.length >= 2);
  expect(await page.evaluate('seen.sort()')).toEqual(['listener both see me', 'onerror Uncaught Error: both see me', 'rejection both see this too']);
  await page.close();
});

test('a cross-origin script\'s "Script error." is not sent', async () => {
  const { factoryId, page } = await openPage('/cross-origin', {}, undefined, `window.scriptErrors = 0; addEventListener('error', function (e) { if (e.message === 'Script error.') scriptErrors++; });`);
  await page.addScriptTag({ url: `${other.origin}/widget.js` });
  // The browser did raise it (so the SDK saw it), and an event sent after it arrives alone.
  await until('the Script error. event', async () => ((await page.evaluate('scriptErrors')) === 1 ? true : undefined));
  await page.evaluate(`ContactsIngest.captureMessage('after the script error')`);
  expect(await page.evaluate('ContactsIngest.flush(10000)')).toBe(true);
  expect((await storedReports(factoryId)).map((event) => event.message)).toEqual(['after the script error']);
  await page.close();
});

test('an error raised right before the page navigates away arrives (sent by beacon)', async () => {
  // A minute's batch delay: only the page's going away can send it.
  const { factoryId, page } = await openPage('/leaving', { flushDelayMs: 60_000 });
  await page.evaluate(`setTimeout(function () { setTimeout(function () { location.href = '/next'; }); throw new Error('thrown just before leaving'); })`);
  await page.waitForURL(`${site.origin}/next`);
  const events = await storedWhen(factoryId, 'the error thrown before leaving', (found) => found.length >= 1);
  expect(withMessage(events, 'Error: thrown just before leaving')).toHaveLength(1);
  await page.close();
});

test('the last events of a page closed while a batch was pending all arrive once', async () => {
  const { factoryId, page } = await openPage('/closing', { flushDelayMs: 60_000 });
  // 25 events: the first 20 fill a batch that goes at once by fetch; the last 5 wait for the delay when the tab closes.
  await page.evaluate(`for (let i = 1; i <= 25; i++) ContactsIngest.captureMessage('closing ' + i)`);
  await page.close({ runBeforeUnload: true });
  const events = await storedWhen(factoryId, '25 events', (found) => found.length >= 25);
  expect(events.map((event) => event.message).sort()).toEqual(Array.from({ length: 25 }, (_, i) => `closing ${i + 1}`).sort());
});
