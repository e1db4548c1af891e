import { engineCases, engineOfBlock, engineTest, localService, openSdkTab, sdkPage, serveSite, storedWhen, withMessage } from '../../support/browser-sdk';
import { until } from '../../support/until';
import { buildSdk } from '../../support/sdk-build';
import { storedReports } from '../../support/ingest';
import { issuePublishableKey, newFactoryId } from '../../support/local-api';

/**
 * The browser SDK's capture, in Chromium, Firefox ESR and WebKitGTK against
 * `npm start`: what a page throws, rejects, captures and submits is stored
 * once, with the stack as the browser wrote it; a cross-origin "Script
 * error." is not; the page's own handlers keep working; and what is pending
 * when the page navigates away or closes still arrives (by sendBeacon), as
 * does an error thrown right before its tab is closed.
 */
let service: Awaited<ReturnType<typeof localService>>;
let site: Awaited<ReturnType<typeof serveSite>>;
let other: Awaited<ReturnType<typeof serveSite>>;
const pages = new Map<string, string>();

beforeAll(async () => {
  const [{ script }, api] = await Promise.all([buildSdk(), localService()]);
  service = api;
  site = await serveSite({ '/contacts-ingest.min.js': script }, (path) => pages.get(path) ?? '<!doctype html><p>next page</p>');
  // A script on another origin that throws: without CORS the page only learns "Script error.".
  other = await serveSite({ '/widget.js': 'setTimeout(function () { throw new Error("secret detail of another origin"); });' }, () => '');
}, 120_000);

afterAll(async () => {
  site?.close();
  other?.close();
  await service?.close();
});

/** Firefox gives the page a cross-origin script's error in full here: there is no "Script error." to drop, and its case checks that instead. */
const NO_SCRIPT_ERROR: Partial<Record<string, string>> = {
  firefox: 'Firefox ESR 153 shows this page the other origin\'s error in full, with no "Script error."',
};

/**
 * Firefox drops close-time requests of a tab whose browsing context group closes with it, a plain page's own too; the
 * harness closes its tabs as a visitor does and disposes nothing (bench/sdk-close-tab.md, docs/development.md#a-closed-tab-in-firefox).
 */
const CLOSE_TIME_SKIP: Partial<Record<string, string>> = {
  firefox:
    "Firefox ESR 153 drops close-time beacons of a tab closed with its browsing context group, a plain page's too: 7 to 12 of 20 arrive, 20 of 20 when the group outlives the tab (bench/sdk-close-tab.md)",
};

/** Tabs an error is thrown in and closed 10 ms later: enough for a rate (the issue asks for 19 of 20 at least). */
const CLOSED_TABS = 20;

describe.each(engineCases())('in $engine', ({ engine: name }) => {
  const engine = engineOfBlock(name);

  /** A factory with a key for the site, and a tab on the site's page at /<engine><path> started with `options`. */
  const openPage = (path: string, options: Record<string, unknown> = {}, extra?: string, body?: string) =>
    openSdkTab({ engine: engine(), engineName: name, pages, site, baseUrl: service.baseUrl, factoryPrefix: 'sdk', path, options, extra, body });

  engineTest('a thrown error, an unhandled rejection, a non-Error rejection, a captureMessage and a feature request each arrive once', undefined, async () => {
    const scenario = `function scenario() {
      setTimeout(function checkout() { throw new TypeError('cart is undefined'); });
      Promise.reject(new RangeError('page out of range'));
      Promise.reject({ code: 42 });
      ContactsIngest.captureMessage('checkout opened');
    }`;
    const options = { release: 'web@1.4.2', tags: { plan: 'pro' }, reporter: { email: 'ada@example.com', name: 'Ada' } };
    const { factoryId, page, url } = await openPage('/all', options, undefined, scenario);
    await page.evaluate('scenario()');
    const answer = await page.evaluate(`ContactsIngest.submitFeatureRequest({ title: 'Dark mode please', category: 'ui' })`);
    expect(answer).toMatchObject({ ok: true, status: 201, created: true, featureRequest: { title: 'Dark mode please' } });

    const events = await storedWhen(factoryId, 'four events', (found) => found.length >= 4);
    expect(withMessage(events, 'TypeError: cart is undefined')).toEqual([
      expect.objectContaining({
        type: 'error',
        // As the engine wrote it: "    at checkout (<url>:3:…)" in Chromium, "checkout@<url>:3:…" in Firefox and WebKit.
        exception: {
          type: 'TypeError',
          value: 'cart is undefined',
          stack: expect.stringMatching(new RegExp(`checkout\\b.*${url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:\\d+`)),
        },
        pageUrl: url,
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
    expect(requests).toEqual([expect.objectContaining({ title: 'Dark mode please', category: 'ui', pageUrl: url })]);
    await page.close();
  });

  engineTest("the page's own window.onerror and error listeners still run beside the SDK's", undefined, async () => {
    const own = `window.seen = []; window.onerror = function (message) { seen.push('onerror ' + message); };
      addEventListener('error', function (event) { seen.push('listener ' + event.error.message); });
      addEventListener('unhandledrejection', function (event) { seen.push('rejection ' + event.reason.message); });`;
    const { factoryId, page } = await openPage('/own-handlers', {}, undefined, own);
    await page.evaluate(`setTimeout(function () { throw new Error('both see me'); }); void Promise.reject(new Error('both see this too'))`);
    await storedWhen(factoryId, 'both events', (found) => found.length >= 2);
    // Chromium and Firefox prefix the onerror message with "Uncaught ", WebKit does not.
    expect(await page.evaluate('seen.sort()')).toEqual([
      'listener both see me',
      expect.stringMatching(/^onerror (Uncaught )?Error: both see me$/),
      'rejection both see this too',
    ]);
    await page.close();
  });

  const fullCrossOriginError = NO_SCRIPT_ERROR[name];
  if (fullCrossOriginError === undefined) {
    engineTest('a cross-origin script\'s "Script error." is not sent', undefined, async () => {
      const { factoryId, page } = await openPage(
        '/cross-origin',
        {},
        undefined,
        `window.scriptErrors = 0; addEventListener('error', function (e) { if (e.message === 'Script error.') scriptErrors++; });`,
      );
      await page.evaluate(`document.head.appendChild(Object.assign(document.createElement('script'), { src: '${other.origin}/widget.js' })); null`);
      // The browser did raise it (so the SDK saw it), and an event sent after it arrives alone.
      await until('the Script error. event', async () => ((await page.evaluate('scriptErrors')) === 1 ? true : undefined));
      await page.evaluate(`ContactsIngest.captureMessage('after the script error')`);
      expect(await page.evaluate('ContactsIngest.flush(10000)')).toBe(true);
      expect((await storedReports(factoryId)).map((event) => event.message)).toEqual(['after the script error']);
      await page.close();
    });
  } else {
    engineTest(`a cross-origin script's error: ${fullCrossOriginError}, so it is sent as the page's own, once`, undefined, async () => {
      const { factoryId, page } = await openPage(
        '/cross-origin',
        {},
        undefined,
        `window.errorsSeen = []; addEventListener('error', function (e) { errorsSeen.push(e.message); });`,
      );
      await page.evaluate(`document.head.appendChild(Object.assign(document.createElement('script'), { src: '${other.origin}/widget.js' })); null`);
      const seen = await until('the error event', async () => {
        const messages = await page.evaluate<string[]>('errorsSeen');
        return messages.length > 0 ? messages : undefined;
      });
      expect(seen).toEqual([expect.stringContaining('secret detail of another origin')]);
      await page.evaluate(`ContactsIngest.captureMessage('after the script error')`);
      expect(await page.evaluate('ContactsIngest.flush(10000)')).toBe(true);
      expect((await storedReports(factoryId)).map((event) => event.message).sort()).toEqual([
        'Error: secret detail of another origin',
        'after the script error',
      ]);
      await page.close();
    });
  }

  engineTest('an error raised within the batching window, right before the page navigates away, arrives (sent by beacon)', undefined, async () => {
    // A minute's window, opened by a first message: only the page's going away can send what follows.
    const { factoryId, page } = await openPage('/leaving', { flushDelayMs: 60_000 });
    expect(await page.evaluate(`ContactsIngest.captureMessage('opening'); ContactsIngest.flush(10000)`)).toBe(true);
    await page.evaluate(
      `setTimeout(function () { setTimeout(function () { location.href = '/next'; }); throw new Error('thrown just before leaving'); }); null`,
    );
    await until('the next page', async () => ((await page.url()) === `${site.origin}/next` ? true : undefined));
    const events = await storedWhen(factoryId, 'the error thrown before leaving', (found) => found.length >= 2);
    expect(withMessage(events, 'Error: thrown just before leaving')).toHaveLength(1);
    await page.close();
  });

  engineTest('the events waiting in the batching window when the tab closes arrive once (one beacon)', CLOSE_TIME_SKIP[name], async () => {
    const { factoryId, page } = await openPage('/closing', { flushDelayMs: 60_000 });
    // The first leaves at once and opens a minute's window; the other 14 wait in it when the tab closes.
    await page.evaluate(`for (let i = 1; i <= 15; i++) ContactsIngest.captureMessage('closing ' + i)`);
    await page.close();
    const events = await storedWhen(factoryId, '15 events', (found) => found.length >= 15);
    expect(events.map((event) => event.message).sort()).toEqual(Array.from({ length: 15 }, (_, i) => `closing ${i + 1}`).sort());
  });

  engineTest('the last events of a page closed while a full batch was pending all arrive once (two beacons)', CLOSE_TIME_SKIP[name], async () => {
    const { factoryId, page } = await openPage('/closing-full', { flushDelayMs: 60_000 });
    // 25 events: the first leaves at once; 20 fill a request that waits for it, 4 more wait for the window: two beacons at close.
    await page.evaluate(`for (let i = 1; i <= 25; i++) ContactsIngest.captureMessage('closing ' + i)`);
    await page.close();
    const events = await storedWhen(factoryId, '25 events', (found) => found.length >= 25);
    expect(events.map((event) => event.message).sort()).toEqual(Array.from({ length: 25 }, (_, i) => `closing ${i + 1}`).sort());
  });

  engineTest(
    `an error thrown alone, its tab closed 10 ms later, is stored from at least 19 of ${CLOSED_TABS} tabs`,
    undefined,
    async () => {
      const factoryId = newFactoryId('sdkclose');
      // One tab at a time, each alone on its site: the harshest case in Firefox (docs/browser-sdk.md#what-survives-a-closing-tab).
      for (let tab = 1; tab <= CLOSED_TABS; tab += 1) {
        // A key per tab, as each tab stands for another visitor: one address's limit (a burst of 6, then 1 a second) must not refuse them.
        const { key } = await issuePublishableKey(factoryId, [site.origin]);
        // The SDK as a site runs it: its defaults, nothing but key and baseUrl.
        pages.set(`/${name}/closed-tab/${tab}`, sdkPage({ key, baseUrl: service.baseUrl }));
        const page = await engine().newTab();
        await page.goto(`${site.origin}/${name}/closed-tab/${tab}`);
        await page.evaluate(`new Promise(function (closeNow) {
        setTimeout(function () { throw new Error('closed tab ${tab}'); });
        setTimeout(closeNow, 10);
      })`);
        await page.close();
      }
      // Those that made it are stored within seconds. The wait ends once all are, or once at least the asserted
      // 19 are and none came for 3 s (a lost tab's error never comes): at most 15 s.
      let count = -1;
      let countSince = Date.now();
      const allOrQuiet = (found: unknown[]) => {
        if (found.length !== count) [count, countSince] = [found.length, Date.now()];
        return found.length >= CLOSED_TABS || (found.length >= CLOSED_TABS - 1 && Date.now() - countSince >= 3000);
      };
      const stored = await storedWhen(factoryId, `${CLOSED_TABS} errors`, allOrQuiet, 15_000).catch(() => undefined);
      const events = stored ?? (await storedReports(factoryId));
      expect(events.length).toBeGreaterThanOrEqual(CLOSED_TABS - 1);
      expect(new Set(events.map((event) => event.message)).size).toBe(events.length);
    },
    120_000,
  );
});
