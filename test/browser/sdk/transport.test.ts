import type { Tab } from '../../../tools/browsers/engines';
import {
  clockLogOf,
  engineCases,
  engineOfBlock,
  engineTest,
  fakeIngest,
  HELD_WAITS,
  localService,
  openSdkTab,
  recordingProxy,
  sdkConsoleOf,
  serveSite,
  storedWhen,
  untilReleased,
  waitsBeforeRetries,
  withMessage,
} from '../../support/browser-sdk';
import { until } from '../../support/until';
import { buildSdk } from '../../support/sdk-build';
import { storedReports } from '../../support/ingest';

/**
 * The browser SDK's transport, in Chromium, Firefox ESR and WebKitGTK
 * against `npm start` (through a proxy that records what each request
 * became): a key's rate limit (429 + Retry-After) delays events but loses
 * none; a storm of 429s from a stand-in API gets at most 4 tries per event,
 * each after its Retry-After, spread (a feature request's tries too: these
 * pages hold their long waits until the test runs them, HELD_WAITS, so the
 * order of what a page did proves each wait, with no seconds waited out); an outage loses none and stores each
 * once; a batch too big for a beacon is split; a refused origin or key is
 * explained once in the console and stops sending; another 4xx is told once
 * and not retried.
 */
let service: Awaited<ReturnType<typeof localService>>;
let wire: Awaited<ReturnType<typeof recordingProxy>>;
let storm: Awaited<ReturnType<typeof fakeIngest>>;
let site: Awaited<ReturnType<typeof serveSite>>;
let foreign: Awaited<ReturnType<typeof serveSite>>;
const pages = new Map<string, string>();

/** The stand-in API's answer to every request in the storm test: over the limit, come back in a second. */
const STORM_RETRY_AFTER_S = 1;

beforeAll(async () => {
  const [{ script }, api] = await Promise.all([buildSdk(), localService()]);
  service = api;
  wire = await recordingProxy(service.baseUrl);
  storm = await fakeIngest(() => ({ status: 429, headers: { 'Retry-After': String(STORM_RETRY_AFTER_S) } }));
  site = await serveSite({ '/contacts-ingest.min.js': script }, (path) => pages.get(path) ?? '');
  foreign = await serveSite({ '/contacts-ingest.min.js': script }, (path) => pages.get(path) ?? '');
}, 120_000);

afterAll(async () => {
  site?.close();
  foreign?.close();
  storm?.close();
  wire?.close();
  await service?.close();
});

/**
 * The SDK splits a beacon the engine refuses for the page's 64 KiB keepalive budget. An engine that applies no such
 * budget takes the whole batch in one beacon: its case checks that instead (docs/development.md#browser-engines).
 */
const NO_BEACON_BUDGET: Partial<Record<string, string>> = {
  firefox: "Firefox ESR 153 takes the beacon beside the page's 40 KB keepalive request",
};

describe.each(engineCases())('in $engine', ({ engine: name }) => {
  const engine = engineOfBlock(name);

  interface Opened {
    factoryId: string;
    key: string;
    page: Tab;
  }

  /** A factory with a key for the site, and a tab at /<engine><path> on `on` (the site, or the foreign one), sending to `baseUrl`. */
  const openPage = (
    path: string,
    options: Record<string, unknown> = {},
    keyOptions: { rateLimit?: number } = {},
    on = site,
    baseUrl = wire.baseUrl,
    head?: string,
  ): Promise<Opened> => openSdkTab({ engine: engine(), engineName: name, pages, site, on, baseUrl, factoryPrefix: 'sdkwire', path, options, keyOptions, head });

  const statuses = (key: string) => wire.of(key).map((request) => request.status);
  /** storedWhen, whose timeout also says what the API answered the page (through the recording proxy). */
  const storedOrWhy = (factoryId: string, key: string, what: string, done: (events: Record<string, any>[]) => boolean, timeoutMs?: number) =>
    storedWhen(factoryId, what, done, timeoutMs).catch((error: Error) => {
      throw new Error(`${error.message}; the API answered this page's requests: ${JSON.stringify(statuses(key))}`);
    });

  engineTest(
    "with the key's rate limit set low, every event still arrives once the Retry-After wait is over",
    undefined,
    async () => {
      // 12 a minute for the key, half of it for one issue: one request of the issue at once, then one every 10 s. Six
      // events of one issue in two requests (the first event leaves alone, the other five wait for its answer): the
      // second request is refused unless it reached the API 10 s after the first, which no machine's round trip
      // takes, and goes again after its Retry-After on the real limiter. (One event per request at 60 a minute needed
      // five requests within 2 s: a loaded machine's round trips spread them, and none was refused.)
      const { factoryId, key, page } = await openPage('/limited', { maxBatchEvents: 5, flushDelayMs: 0 }, { rateLimit: 12 });
      const ids = (await page.evaluate(`[1, 2, 3, 4, 5, 6].map(function (n) { return ContactsIngest.captureMessage('limited ' + n); })`)) as string[];
      const events = await storedOrWhy(factoryId, key, 'all six events', (found) => found.length >= 6, 60_000);
      expect(events.map((event) => event.message).sort()).toEqual(ids.map((_, i) => `limited ${i + 1}`).sort());
      // Refused with 429, then sent again as they were: the same eventIds.
      expect(statuses(key)).toContain(429);
      expect(events.map((event) => event.eventId).sort()).toEqual([...ids].sort());
      expect(await page.evaluate('ContactsIngest.flush(1000)')).toBe(true);
      expect(await storedReports(factoryId)).toHaveLength(6);
      await page.close();
    },
    90_000,
  );

  engineTest(
    "in a storm of 429s each event is tried at most 4 times, each try after its Retry-After, the tabs' returns spread, then dropped with one console note",
    undefined,
    async () => {
      // Six visitors' tabs, every request refused with Retry-After: 1 by a stand-in API; each page holds its waits until the test runs them.
      // Backoff of a minute: a page that ignored Retry-After (or its fraction) would ask that wait instead.
      const tabs = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          openPage(`/storm-${i}`, { flushDelayMs: 0, retryBaseMs: 60_000, retryMaxMs: 60_000 }, {}, site, storm.baseUrl, HELD_WAITS),
        ),
      );
      const pagesOf = tabs.map(({ page }) => page);
      const firsts = await Promise.all(tabs.map(({ page }) => page.evaluate<string>(`ContactsIngest.captureMessage('storm')`)));
      // While the first tab waits out its first 429, it captures another event: it rides with the next try.
      await until("the first tab's wait after its first refusal", async () =>
        (await clockLogOf(pagesOf[0] as Tab)).some((entry) => entry.what === 'wait') ? true : undefined,
      );
      const later = await tabs[0]?.page.evaluate<string>(`ContactsIngest.captureMessage('during the wait')`);
      const notes = await Promise.all(
        tabs.map(({ page }) =>
          untilReleased(pagesOf, 'the console note', async () => (await sdkConsoleOf(page)).find((line) => /after 4 attempts/.test(line.text))),
        ),
      );
      // The later event's own fourth try comes a wait after the first event's last.
      await untilReleased(pagesOf, "the later event's last try", () => (storm.of(tabs[0]?.key ?? '').length >= 5 ? true : undefined));
      const waits: number[] = [];
      for (const [i, { key, page }] of tabs.entries()) {
        const requests = storm.of(key);
        // At most 4 tries of each event, whatever else was sent.
        const tries = new Map<string, number>();
        for (const request of requests) for (const id of request.eventIds) tries.set(id, (tries.get(id) ?? 0) + 1);
        expect(tries.get(firsts[i] as string)).toBe(4);
        if (i === 0) {
          expect(tries.get(later as string)).toBe(4);
          // It went with the first event's second try: no request of its own then.
          expect(requests[1]?.eventIds).toEqual([firsts[0], later]);
        } else {
          expect(requests).toHaveLength(4);
        }
        // Each try went after the page waited at least Retry-After (and its jitter: at most a second more) from the answer to the one before it.
        const log = await clockLogOf(page);
        expect(log.filter((entry) => entry.what === 'fetch')).toHaveLength(requests.length);
        expect(log.filter((entry) => entry.what === 'answer').map((entry) => 'status' in entry && [entry.status, entry.retryAfter])).toEqual(
          requests.map(() => [429, String(STORM_RETRY_AFTER_S)]),
        );
        const before = waitsBeforeRetries(log);
        expect(before).toHaveLength(requests.length - 1);
        for (const wait of before) {
          expect(wait).toBeGreaterThanOrEqual(STORM_RETRY_AFTER_S * 1000);
          expect(wait).toBeLessThanOrEqual(STORM_RETRY_AFTER_S * 1000 + 1000);
        }
        waits.push(...before);
      }
      // Spread: the jitter adds up to a second, so the waits do not all end together (max − min over 18+ waits).
      expect(Math.max(...waits) - Math.min(...waits)).toBeGreaterThan(300);
      for (const note of notes)
        expect(note.text).toMatch(/^\[ContactsIngest\] Could not deliver 1 event\(s\) to http:\/\/localhost:\d+ after 4 attempts \(HTTP 429\): dropped\./);
      for (const { page } of tabs) {
        expect((await sdkConsoleOf(page)).filter((line) => /Could not deliver/.test(line.text))).toHaveLength(1);
        await page.close();
      }
    },
    60_000,
  );

  engineTest(
    'a feature request refused with 429 is sent again after each Retry-After, 4 times at most, and answers the last refusal',
    undefined,
    async () => {
      const { key, page } = await openPage('/storm-feature', {}, {}, site, storm.baseUrl, HELD_WAITS);
      // Not awaited in one evaluate: the page's waits pass only when the test runs them, between its own calls.
      await page.evaluate(
        `ContactsIngest.submitFeatureRequest({ title: 'Dark mode please' }).then(function (answer) { window.featureAnswer = answer; }); null`,
      );
      const answer = await untilReleased([page], 'the answer', async () => (await page.evaluate<unknown>('window.featureAnswer')) ?? undefined);
      expect(answer).toMatchObject({ ok: false, status: 429 });
      const requests = storm.of(key);
      expect(requests).toHaveLength(4);
      const log = await clockLogOf(page);
      expect(log.filter((entry) => entry.what === 'fetch')).toHaveLength(4);
      const before = waitsBeforeRetries(log);
      expect(before).toHaveLength(3);
      for (const wait of before) expect(wait).toBeGreaterThanOrEqual(STORM_RETRY_AFTER_S * 1000);
      await page.close();
    },
    60_000,
  );

  engineTest(
    'events queued while the API cannot be reached arrive once it can again, each stored once',
    undefined,
    async () => {
      const { factoryId, key, page } = await openPage('/outage', { retryBaseMs: 100, retryMaxMs: 400, maxRetries: 1000 });
      await page.evaluate(`ContactsIngest.captureMessage('before the outage')`);
      await storedOrWhy(factoryId, key, 'the first event', (found) => found.length === 1);
      wire.cutOff(true);
      try {
        const ids = (await page.evaluate(`[1, 2, 3].map(function (n) { return ContactsIngest.captureMessage('during the outage ' + n); })`)) as string[];
        // The SDK is retrying: requests fail, more than once.
        await until('failed requests', () => (statuses(key).filter((status) => status === 'failed').length >= 2 ? true : undefined));
        await page.evaluate(`ContactsIngest.captureMessage('still down')`);
        wire.cutOff(false);
        const events = await storedOrWhy(factoryId, key, 'five events', (found) => found.length >= 5, 60_000);
        expect(await page.evaluate('ContactsIngest.flush(30000)')).toBe(true);
        expect((await storedReports(factoryId)).map((event) => event.message).sort()).toEqual(
          ['before the outage', 'during the outage 1', 'during the outage 2', 'during the outage 3', 'still down'].sort(),
        );
        expect(events.length).toBe(5);
        expect(
          withMessage(events, /^during the outage/)
            .map((event) => event.eventId)
            .sort(),
        ).toEqual([...ids].sort());
      } finally {
        wire.cutOff(false);
      }
      await page.close();
    },
    90_000,
  );

  engineTest("a page on a foreign origin gets the API's refusal in the console once, and sends nothing more", undefined, async () => {
    const { factoryId, key, page } = await openPage('/foreign', {}, {}, foreign);
    await page.evaluate(`ContactsIngest.captureMessage('from a foreign site')`);
    const message = await until('the console message', async () => (await sdkConsoleOf(page))[0]);
    expect(message.level).toBe('error');
    expect(message.text).toContain(`refused this page's origin ${foreign.origin} (403)`);
    expect(message.text).toContain(`Origin ${JSON.stringify(foreign.origin)} is not one of the websites this key was issued for`);
    expect(message.text).toContain(`add ${foreign.origin} to the origins of the key`);
    const requests = wire.of(key).length;
    expect(await page.evaluate(`[ContactsIngest.captureMessage('again'), ContactsIngest.captureException(new Error('and again'))]`)).toEqual(['', '']);
    expect(await page.evaluate('ContactsIngest.flush(1000)')).toBe(true);
    expect(wire.of(key).length).toBe(requests);
    expect(await sdkConsoleOf(page)).toHaveLength(1);
    expect(await storedReports(factoryId)).toEqual([]);
    await page.close();
  });

  engineTest("a wrong key is explained once in the console, with the API's words and what to do", undefined, async () => {
    const { page } = await openPage('/wrong-key', {});
    await page.evaluate(`ContactsIngest.init(Object.assign({}, sdkOptions, { key: 'dfpk_not_a_real_key' }))`);
    await page.evaluate(`ContactsIngest.captureMessage('with a wrong key'); ContactsIngest.captureMessage('twice')`);
    const message = await until('the console message', async () => (await sdkConsoleOf(page))[0]);
    expect(message.text).toMatch(/refused the key \(401\): Unknown API key: .* Pass init\(\) the publishable key \(dfpk_…\) issued for this website/);
    expect(await page.evaluate('ContactsIngest.flush(1000)')).toBe(true);
    expect(await sdkConsoleOf(page)).toHaveLength(1);
    await page.close();
  });

  engineTest('another 4xx (an event the API finds invalid: 422) is told once in the console and never retried', undefined, async () => {
    const { factoryId, key, page } = await openPage('/invalid', {});
    const tooManyTags = JSON.stringify(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`t${i}`, 'x'])));
    await page.evaluate(`ContactsIngest.captureMessage('too many tags', { tags: ${tooManyTags} })`);
    expect(await page.evaluate('ContactsIngest.flush(10000)')).toBe(true);
    await page.evaluate(`ContactsIngest.captureMessage('also too many tags', { tags: ${tooManyTags} })`);
    expect(await page.evaluate('ContactsIngest.flush(10000)')).toBe(true);
    expect(statuses(key)).toEqual([422, 422]);
    expect(await sdkConsoleOf(page)).toEqual([
      {
        level: 'warn',
        text: expect.stringMatching(/^\[ContactsIngest\] The ingest API answered 422: .*tags has 51 entries.* These events were dropped, not retried\.$/),
      },
    ]);
    // The SDK still works for valid events.
    await page.evaluate(`ContactsIngest.captureMessage('valid')`);
    expect(await page.evaluate('ContactsIngest.flush(10000)')).toBe(true);
    expect(withMessage(await storedReports(factoryId), 'valid')).toHaveLength(1);
    await page.close();
  });

  /** A page whose keepalive request holds 40 KB of the engine's budget hides with 10 events of 3 KB pending: the beacons it tried, and the events stored. */
  async function hiddenWithBudgetTaken() {
    const { factoryId, key, page } = await openPage('/hidden', { flushDelayMs: 60_000 });
    // A first message opens a minute's batching window: what follows waits in it.
    expect(await page.evaluate(`ContactsIngest.captureMessage('opening'); ContactsIngest.flush(10000)`)).toBe(true);
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
    const events = await storedOrWhy(factoryId, key, 'eleven events', (found) => found.length >= 11);
    const beacons = (await page.evaluate('beacons')) as { bytes: number; ok: boolean; keyInQuery: boolean }[];
    expect(await page.evaluate('ContactsIngest.flush(10000)')).toBe(true);
    expect(new Set(withMessage(events, /^hidden /).map((event) => event.message)).size).toBe(10);
    expect(await storedReports(factoryId)).toHaveLength(11);
    expect(statuses(key).every((status) => status === 202)).toBe(true);
    expect(beacons.every((beacon) => beacon.keyInQuery)).toBe(true);
    await page.close();
    return beacons;
  }

  const noBudget = NO_BEACON_BUDGET[name];
  if (noBudget === undefined) {
    engineTest(
      'when the page is hidden, pending events go by sendBeacon; a batch the browser refuses is split, and every event arrives once',
      undefined,
      async () => {
        const beacons = await hiddenWithBudgetTaken();
        // The whole batch was refused, then its halves tried in turn; some halves went (the rest by fetch). Few
        // requests in all: the API allows a burst of 7 a minute from one address and key, and a beacon's 429 is never seen.
        expect(beacons[0]).toMatchObject({ ok: false });
        expect(beacons[0]?.bytes).toBeGreaterThan(10 * 3000);
        expect(beacons[1]?.bytes).toBeLessThan(beacons[0]?.bytes ?? 0);
        expect(beacons.some((beacon) => beacon.ok)).toBe(true);
      },
    );
  } else {
    engineTest(
      `when the page is hidden, pending events go by sendBeacon; ${noBudget}: the batch goes whole in one beacon, and every event arrives once`,
      undefined,
      async () => {
        const beacons = await hiddenWithBudgetTaken();
        expect(beacons).toEqual([{ bytes: expect.any(Number), ok: true, keyInQuery: true }]);
        expect(beacons[0]?.bytes).toBeGreaterThan(10 * 3000);
      },
    );
  }
});
