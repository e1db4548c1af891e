import type { FeatureRequestAnswer, IngestEvent, InitOptions } from '../../../browser-sdk/src/types';

/**
 * The SDK's entry points (init, captureException, captureMessage,
 * submitFeatureRequest, flush) in Node, in a page made of the few globals
 * it reads (location, addEventListener, document, navigator) and a fetch
 * that records each request: the capture path and its noise filters, the
 * page's own error events, and what goes when the page is hidden. The same
 * in three real engines: test/browser/sdk/.
 */
interface Sdk {
  init(options: InitOptions): void;
  captureException(error: unknown, options?: { tags?: Record<string, string>; fingerprint?: string[] }): string;
  captureMessage(message: string, options?: { type?: 'message' | 'bug_report' }): string;
  submitFeatureRequest(request: { title: string }): Promise<FeatureRequestAnswer>;
  flush(timeoutMs?: number): Promise<boolean>;
}

type Listener = (event: unknown) => void;
const listeners = new Map<string, Listener[]>();
const on = (type: string, listener: Listener) => listeners.set(type, [...(listeners.get(type) ?? []), listener]);
const fire = (type: string, event: unknown = {}) => {
  for (const listener of listeners.get(type) ?? []) listener(event);
};
const sent: { url: string; body: string }[] = [];
const beacons: { url: string; body: string }[] = [];
let status = 202;
const document = { visibilityState: 'visible', addEventListener: on };

const GLOBALS = ['location', 'addEventListener', 'document', 'navigator', 'fetch'] as const;
const saved = new Map(GLOBALS.map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)]));
const define = (name: (typeof GLOBALS)[number], value: unknown) => Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });

let sdk: Sdk;
beforeEach(() => {
  listeners.clear();
  sent.length = 0;
  beacons.length = 0;
  status = 202;
  document.visibilityState = 'visible';
  define('location', { href: 'https://shop.example/cart', origin: 'https://shop.example' });
  define('addEventListener', on);
  define('document', document);
  define('navigator', { sendBeacon: (url: string, body: string) => beacons.push({ url, body }) > 0 });
  define('fetch', async (url: string, init: { body: string }) => {
    sent.push({ url, body: init.body });
    const body =
      status < 300 ? { accepted: 1, duplicates: 0, rejected: [], created: true, featureRequest: { id: 'fr_1', title: 't', createdAt: 'x' } } : { error: 'no' };
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  });
  jest.isolateModules(() => {
    sdk = jest.requireActual<Sdk>('../../../browser-sdk/src/client');
  });
});
// What a test captured and did not wait for goes out to the stand-in fetch before the next test, never to the network.
afterEach(async () => {
  status = 202;
  await sdk.flush(5000);
});
afterAll(() => {
  for (const [name, descriptor] of saved) {
    if (descriptor) Object.defineProperty(globalThis, name, descriptor);
    else delete (globalThis as Record<string, unknown>)[name];
  }
});

const OPTIONS: InitOptions = { key: 'dfpk_test', baseUrl: 'https://api.example.com', flushDelayMs: 0 };
const eventsSent = () => sent.flatMap((request) => (JSON.parse(request.body) as { events?: IngestEvent[] }).events ?? []);

describe('before init()', () => {
  test('captures nothing and a feature request says to call init() first', async () => {
    expect(sdk.captureMessage('hello')).toBe('');
    expect(await sdk.submitFeatureRequest({ title: 'Dark mode' })).toEqual({
      ok: false,
      status: 0,
      error: 'Call ContactsIngest.init({ key, baseUrl }) first.',
    });
    expect(await sdk.flush()).toBe(true);
  });

  test('init() without a key or a base address throws, saying what they are', () => {
    expect(() => sdk.init({ key: 'dfpk_test' } as InitOptions)).toThrow(/key is the publishable key \(dfpk_…\), baseUrl the service's base address/);
  });
});

describe('a captured error', () => {
  test("goes with its id, type, time, the page's URL, release, tags and reporter", async () => {
    sdk.init({ ...OPTIONS, release: 'web@1', tags: { plan: 'pro' }, reporter: { email: 'ada@example.com' } });
    const id = sdk.captureException(new TypeError('x is undefined'), { tags: { step: 'pay' } });
    expect(await sdk.flush()).toBe(true);
    expect(sent.find((request) => request.url.includes('/events'))?.url).toBe('https://api.example.com/ingest/v1/events?key=dfpk_test');
    expect(eventsSent()).toEqual([
      expect.objectContaining({
        eventId: id,
        type: 'error',
        message: 'TypeError: x is undefined',
        exception: expect.objectContaining({ type: 'TypeError', value: 'x is undefined' }),
        pageUrl: 'https://shop.example/cart',
        release: 'web@1',
        tags: { plan: 'pro', step: 'pay' },
        reporter: { email: 'ada@example.com' },
      }),
    ]);
  });

  test('an identical error right after itself goes once; dedupe: false sends each', async () => {
    sdk.init(OPTIONS);
    const error = new Error('same');
    expect(sdk.captureException(error)).not.toBe('');
    expect(sdk.captureException(error)).toBe('');
    sdk.init({ ...OPTIONS, dedupe: false });
    expect([sdk.captureException(error), sdk.captureException(error)].every((id) => id !== '')).toBe(true);
  });

  test('ignoreErrors, "Script error." and a script of denyUrls or of an extension are dropped', () => {
    sdk.init({ ...OPTIONS, ignoreErrors: ['ResizeObserver', /^Benign/], denyUrls: ['https://ads.example'] });
    expect(sdk.captureMessage('Benign: nothing')).toBe('');
    expect(sdk.captureMessage('Script error.')).toBe('');
    const fromAds = Object.assign(new Error('ad failed'), { stack: 'Error: ad failed\n    at https://ads.example/x.js:1:1' });
    const fromExtension = Object.assign(new Error('ext'), { stack: 'Error: ext\n    at chrome-extension://abc/c.js:1:1' });
    expect([sdk.captureException(fromAds), sdk.captureException(fromExtension)]).toEqual(['', '']);
  });

  test("an error type's burst is sent, then that type waits; another type still goes; maxEventsPerPage caps the page", () => {
    sdk.init({ ...OPTIONS, dedupe: false, errorBurst: 2, maxEventsPerPage: 3 });
    const ids = [1, 2, 3].map((n) => sdk.captureException(new TypeError(`t${n}`)));
    expect(ids.map((id) => id !== '')).toEqual([true, true, false]);
    expect(sdk.captureException(new RangeError('r'))).not.toBe('');
    expect(sdk.captureException(new SyntaxError('s'))).toBe('');
  });

  test('sampleRate 0 sends nothing', () => {
    sdk.init({ ...OPTIONS, sampleRate: 0 });
    expect(sdk.captureMessage('hello')).toBe('');
  });

  test('beforeSend may change an event or drop it; one it throws on is dropped', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    sdk.init({
      ...OPTIONS,
      dedupe: false,
      beforeSend: (event) => {
        if (/drop/.test(event.message ?? '')) return null;
        if (/throw/.test(event.message ?? '')) throw new Error('scrubber broke');
        return { ...event, message: 'scrubbed' };
      },
    });
    expect(sdk.captureMessage('drop me')).toBe('');
    expect(sdk.captureMessage('throw please')).toBe('');
    expect(sdk.captureMessage('keep me')).not.toBe('');
    await sdk.flush();
    expect(eventsSent().map((event) => event.message)).toEqual(['scrubbed']);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('beforeSend threw'));
    warn.mockRestore();
  });

  test('a message is type message, or bug_report when asked', async () => {
    sdk.init(OPTIONS);
    sdk.captureMessage('a note');
    sdk.captureMessage('the cart is empty', { type: 'bug_report' });
    await sdk.flush();
    expect(eventsSent().map((event) => event.type)).toEqual(['message', 'bug_report']);
  });
});

describe("the page's own errors", () => {
  test('an unhandled error and a rejection are captured; a cross-origin "Script error." is not', async () => {
    sdk.init(OPTIONS);
    fire('error', { error: new TypeError('boom'), message: 'boom', filename: 'https://shop.example/app.js' });
    fire('unhandledrejection', { reason: 'nope' });
    fire('error', { error: null, message: 'Script error.' });
    await sdk.flush();
    expect(eventsSent().map((event) => event.message)).toEqual(['TypeError: boom', 'Unhandled promise rejection: nope']);
  });

  test('captureUnhandled: false leaves them to the page', async () => {
    sdk.init({ ...OPTIONS, captureUnhandled: false });
    fire('error', { error: new TypeError('boom') });
    await sdk.flush();
    expect(sent).toEqual([]);
  });

  test('a second init() adds no second set of listeners', async () => {
    sdk.init(OPTIONS);
    sdk.init(OPTIONS);
    expect(listeners.get('error')).toHaveLength(1);
  });
});

/** The session updates sent so far, in order (POST /ingest/v1/sessions). */
const sessionsSent = () =>
  sent
    .filter((request) => request.url === 'https://api.example.com/ingest/v1/sessions?key=dfpk_test')
    .map((request) => (JSON.parse(request.body) as { session: Record<string, unknown> }).session);

describe("the page load's session", () => {
  test('init() with a release sends it at once: its id, init, its start, ok, no errors, the release and environment', async () => {
    sdk.init({ ...OPTIONS, release: 'web@2', environment: 'staging' });
    expect(await sdk.flush()).toBe(true);
    const [update] = sessionsSent();
    expect(update).toEqual({
      sid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      init: true,
      started: expect.any(String),
      status: 'ok',
      errors: 0,
      release: 'web@2',
      environment: 'staging',
    });
    expect(Date.parse(update?.started as string)).toBeLessThanOrEqual(Date.now());
  });

  test('a captured error makes it errored and an unhandled one crashed, each change sent once, as the same session', async () => {
    sdk.init({ ...OPTIONS, release: 'web@2' });
    expect(await sdk.flush()).toBe(true);
    sdk.captureException(new Error('handled'));
    sdk.captureException(new Error('handled again'));
    sdk.captureMessage('a message is no error');
    fire('error', { error: new TypeError('boom'), message: 'boom' });
    fire('unhandledrejection', { reason: 'after the crash' });
    await sdk.flush();
    const updates = sessionsSent();
    expect(updates.map(({ status, errors }) => [status, errors])).toEqual([
      ['ok', 0],
      ['errored', 1],
      ['crashed', 3],
    ]);
    expect(new Set(updates.map((update) => update.sid)).size).toBe(1);
    // Answered 2xx: the later updates no longer count the session as started.
    expect(updates.map((update) => update.init)).toEqual([true, false, false]);
  });

  test('an unhandled rejection crashes it; an ignored error ("Script error.") does not touch it', async () => {
    sdk.init({ ...OPTIONS, release: 'web@2' });
    fire('error', { error: null, message: 'Script error.' });
    fire('unhandledrejection', { reason: 'nope' });
    await sdk.flush();
    expect(sessionsSent()[1]).toMatchObject({ status: 'crashed', errors: 1 });
    expect(sessionsSent()).toHaveLength(2);
  });

  test('until an update is answered 2xx, each says init, so a lost start is counted by the next one', async () => {
    status = 400;
    sdk.init({ ...OPTIONS, release: 'web@2' });
    await sdk.flush();
    status = 202;
    sdk.captureException(new Error('handled'));
    await sdk.flush();
    fire('error', { error: new TypeError('boom'), message: 'boom' });
    await sdk.flush();
    expect(sessionsSent().map((update) => update.init)).toEqual([true, true, false]);
  });

  test('none without a release or with sessions: false, and a second init() starts no second one', async () => {
    sdk.init(OPTIONS);
    sdk.init({ ...OPTIONS, release: 'web@2', sessions: false });
    sdk.captureException(new Error('handled'));
    await sdk.flush();
    expect(sessionsSent()).toEqual([]);
    sdk.init({ ...OPTIONS, release: 'web@2' });
    sdk.init({ ...OPTIONS, release: 'web@3' });
    await sdk.flush();
    expect(sessionsSent()).toEqual([expect.objectContaining({ release: 'web@2' })]);
  });
});

describe('when the page goes', () => {
  test('what is pending goes by beacon when the page is hidden or closed', () => {
    sdk.init({ ...OPTIONS, flushDelayMs: 60_000 });
    sdk.captureMessage('first');
    sdk.captureMessage('second');
    document.visibilityState = 'hidden';
    fire('visibilitychange');
    expect(beacons.flatMap((beacon) => (JSON.parse(beacon.body) as { events: IngestEvent[] }).events.map((event) => event.message))).toEqual(['second']);
    sdk.captureMessage('third');
    fire('pagehide');
    expect(beacons).toHaveLength(2);
  });
});

describe('a feature request', () => {
  test('goes now, with a requestId and the page, and answers what the API answered', async () => {
    sdk.init(OPTIONS);
    const answer = await sdk.submitFeatureRequest({ title: 'Dark mode' });
    expect(answer).toMatchObject({ ok: true, status: 202, created: true });
    expect(sent[0]?.url).toBe('https://api.example.com/ingest/v1/feature-requests?key=dfpk_test');
    expect(JSON.parse(sent[0]?.body ?? '{}')).toMatchObject({ title: 'Dark mode', pageUrl: 'https://shop.example/cart', requestId: expect.any(String) });
  });

  test("a refusal answers the API's words", async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    sdk.init(OPTIONS);
    status = 422;
    expect(await sdk.submitFeatureRequest({ title: '' })).toEqual({ ok: false, status: 422, error: 'no' });
    error.mockRestore();
  });
});
