import { configure } from '../../../browser-sdk/src/defaults';
import type { RequestMaker, TransportRequest, TransportResponse } from '../../../browser-sdk/src/transport';
import type { InitOptions, IngestEvent } from '../../../browser-sdk/src/types';

/**
 * The SDK's transport in Node, on jest's clock, against a fake request maker
 * that records each request and beacon and answers as each test scripts:
 * batching, the retry rule as the transport applies it, refusals, the
 * keepalive budget and beacons when the page goes. The browser suite
 * (test/browser/sdk/transport.test.ts) holds the same against real engines
 * and `npm start`.
 */
type Transport = ReturnType<typeof import('../../../browser-sdk/src/transport').createTransport>;

const ORIGIN = 'https://shop.example';
const OPTIONS: InitOptions = { key: 'dfpk_test', baseUrl: 'https://api.example.com/' };

interface Sent extends TransportRequest {
  /** The eventIds of the body's events (empty for another path's body). */
  ids: string[];
}

/** A request maker that answers each request by `answer` (a thrown error is a network failure) and beacons by `takeBeacon`. */
function fakeRequests(answer: (request: Sent) => TransportResponse | Error, takeBeacon: (body: string) => boolean = () => true) {
  const sent: Sent[] = [];
  const beacons: { url: string; ids: string[] }[] = [];
  const idsOf = (body: string) => ((JSON.parse(body) as { events?: IngestEvent[] }).events ?? []).map((event) => event.eventId);
  const requests: RequestMaker = {
    send: async (request) => {
      const record = { ...request, ids: idsOf(request.body) };
      sent.push(record);
      const outcome = answer(record);
      if (outcome instanceof Error) throw outcome;
      return outcome;
    },
    beacon: (url, body) => {
      const taken = takeBeacon(body);
      if (taken) beacons.push({ url, ids: idsOf(body) });
      return taken;
    },
    origin: ORIGIN,
  };
  return { requests, sent, beacons };
}

const accepted = (): TransportResponse => ({ status: 202, body: { accepted: 1, duplicates: 0, rejected: [] }, retryAfter: null });
const refused = (status: number, retryAfter: string | null = null, error = 'refused'): TransportResponse => ({ status, body: { error }, retryAfter });

const event = (id: string, message = 'TypeError: x is undefined'): IngestEvent => ({
  eventId: id,
  type: 'error',
  timestamp: '2026-11-27T12:00:00.000Z',
  message,
});

/** A fresh transport module for each test: the console says each kind of note once per page, and a test is a page. */
function transportOf(requests: RequestMaker, options: Partial<InitOptions> = {}): Transport {
  let transport: Transport | undefined;
  jest.isolateModules(() => {
    const { createTransport } = jest.requireActual<typeof import('../../../browser-sdk/src/transport')>('../../../browser-sdk/src/transport');
    transport = createTransport(configure({ ...OPTIONS, ...options }), requests);
  });
  return transport as Transport;
}

let warn: jest.SpyInstance;
let error: jest.SpyInstance;
beforeEach(() => {
  jest.useFakeTimers({ now: Date.parse('2026-11-27T12:00:00Z') });
  warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  warn.mockRestore();
  error.mockRestore();
  jest.useRealTimers();
});

describe('batching', () => {
  test('a lone event goes at once, as a keepalive POST of its events body to /ingest/v1/events with the key in the query', async () => {
    const wire = fakeRequests(accepted);
    transportOf(wire.requests).enqueue(event('e1'));
    await jest.advanceTimersByTimeAsync(0);
    expect(wire.sent).toEqual([{ url: 'https://api.example.com/ingest/v1/events?key=dfpk_test', keepalive: true, body: expect.any(String), ids: ['e1'] }]);
    expect(JSON.parse(wire.sent[0]!.body)).toEqual({ events: [event('e1')] });
  });

  test('what comes within flushDelayMs of a request waits for the window to end, then goes as one request', async () => {
    const wire = fakeRequests(accepted);
    const transport = transportOf(wire.requests, { flushDelayMs: 1000 });
    transport.enqueue(event('e1'));
    await jest.advanceTimersByTimeAsync(100);
    transport.enqueue(event('e2'));
    transport.enqueue(event('e3'));
    await jest.advanceTimersByTimeAsync(800);
    expect(wire.sent.map((request) => request.ids)).toEqual([['e1']]);
    await jest.advanceTimersByTimeAsync(100);
    expect(wire.sent.map((request) => request.ids)).toEqual([['e1'], ['e2', 'e3']]);
  });

  test('a full batch goes without waiting for the window', async () => {
    const wire = fakeRequests(accepted);
    const transport = transportOf(wire.requests, { flushDelayMs: 60_000, maxBatchEvents: 3 });
    transport.enqueue(event('e1'));
    await jest.advanceTimersByTimeAsync(0);
    for (const id of ['e2', 'e3', 'e4']) transport.enqueue(event(id));
    await jest.advanceTimersByTimeAsync(0);
    expect(wire.sent.map((request) => request.ids)).toEqual([['e1'], ['e2', 'e3', 'e4']]);
  });

  test('a request holds at most maxRequestBytes: the rest of the queue goes in the next', async () => {
    const wire = fakeRequests(accepted);
    const transport = transportOf(wire.requests, { maxRequestBytes: 1500 });
    transport.enqueue(event('e0'));
    await jest.advanceTimersByTimeAsync(0);
    for (const id of ['e1', 'e2', 'e3']) transport.enqueue(event(id, 'x'.repeat(600)));
    expect(await flushed(transport)).toBe(true);
    expect(wire.sent.map((request) => request.ids)).toEqual([['e0'], ['e1', 'e2'], ['e3']]);
    expect(wire.sent.every((request) => new TextEncoder().encode(request.body).length <= 1500)).toBe(true);
  });

  test('flush() sends the queue without waiting for the window, and resolves true once nothing is pending', async () => {
    const wire = fakeRequests(accepted);
    const transport = transportOf(wire.requests, { flushDelayMs: 60_000 });
    transport.enqueue(event('e1'));
    transport.enqueue(event('e2'));
    expect(await flushed(transport)).toBe(true);
    expect(wire.sent.map((request) => request.ids)).toEqual([['e1'], ['e2']]);
  });

  test('flush() resolves false when its timeout passes first', async () => {
    // An API that never answers.
    const transport = transportOf({ send: () => new Promise(() => undefined), beacon: () => true, origin: ORIGIN });
    transport.enqueue(event('e1'));
    const done = transport.flush(500);
    await jest.advanceTimersByTimeAsync(500);
    expect(await done).toBe(false);
  });

  test('past maxQueuedEvents a new event is refused, and the console says so once', async () => {
    const transport = transportOf({ send: () => new Promise(() => undefined), beacon: () => true, origin: ORIGIN }, { maxQueuedEvents: 2 });
    expect(['e1', 'e2', 'e3', 'e4', 'e5'].map((id) => transport.enqueue(event(id)))).toEqual([true, true, true, false, false]);
    expect(warn.mock.calls.filter(([text]) => /already waiting/.test(text))).toHaveLength(1);
  });
});

/** flush() with the clock run far enough for any retry of the default rule. */
async function flushed(transport: Transport): Promise<boolean> {
  const done = transport.flush(600_000);
  await jest.advanceTimersByTimeAsync(600_000);
  return done;
}

describe('the retry rule, as the transport applies it', () => {
  test('by default a batch refused every time is tried 4 times in all, the same body each time, then dropped with one console note', async () => {
    const wire = fakeRequests(() => refused(503));
    const transport = transportOf(wire.requests);
    transport.enqueue(event('e1'));
    expect(await flushed(transport)).toBe(true);
    expect(wire.sent).toHaveLength(4);
    expect(new Set(wire.sent.map((request) => request.body)).size).toBe(1);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('Could not deliver 1 event(s) to https://api.example.com after 4 attempts (HTTP 503)'));
  });

  test('a network failure is retried as a refusal is, and the note says so', async () => {
    const wire = fakeRequests(() => new TypeError('Failed to fetch'));
    const transport = transportOf(wire.requests, { maxRetries: 1 });
    transport.enqueue(event('e1'));
    expect(await flushed(transport)).toBe(true);
    // Each try: keepalive refused, then once more as a plain request.
    expect(wire.sent.map((request) => request.keepalive)).toEqual([true, false, true, false]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('after 2 attempts (network failure)'));
  });

  test("a 429's next try waits its Retry-After, never less, and at most half of it more", async () => {
    let calls = 0;
    const wire = fakeRequests(() => (++calls === 1 ? refused(429, '6') : accepted()));
    transportOf(wire.requests).enqueue(event('e1'));
    await jest.advanceTimersByTimeAsync(5999);
    expect(wire.sent).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(3001);
    expect(wire.sent.map((request) => request.ids)).toEqual([['e1'], ['e1']]);
  });

  test('events captured during a wait ride with the next try, not as requests of their own', async () => {
    let calls = 0;
    const wire = fakeRequests(() => (++calls === 1 ? refused(503) : accepted()));
    const transport = transportOf(wire.requests);
    transport.enqueue(event('e1'));
    await jest.advanceTimersByTimeAsync(10);
    transport.enqueue(event('e2'));
    expect(await flushed(transport)).toBe(true);
    expect(wire.sent.map((request) => request.ids)).toEqual([['e1'], ['e1', 'e2']]);
  });

  test('another 4xx drops the batch without a retry, and the console tells the answer once', async () => {
    const wire = fakeRequests(() => refused(422, null, 'events[0].eventId must be a UUID'));
    const transport = transportOf(wire.requests);
    transport.enqueue(event('e1'));
    expect(await flushed(transport)).toBe(true);
    transport.enqueue(event('e2'));
    expect(await flushed(transport)).toBe(true);
    expect(wire.sent).toHaveLength(2);
    expect(warn.mock.calls.map(([text]) => text)).toEqual([
      '[ContactsIngest] The ingest API answered 422: events[0].eventId must be a UUID These events were dropped, not retried.',
    ]);
  });

  test('events the API rejected inside a 202 are told once', async () => {
    const wire = fakeRequests(() => ({ status: 202, body: { accepted: 0, duplicates: 0, rejected: [{ index: 0, error: 'too long' }] }, retryAfter: null }));
    const transport = transportOf(wire.requests);
    transport.enqueue(event('e1'));
    expect(await flushed(transport)).toBe(true);
    expect(warn).toHaveBeenCalledWith('[ContactsIngest] The ingest API rejected 1 event(s), e.g. {"index":0,"error":"too long"}');
  });
});

describe('refusals that stop the page', () => {
  test('a 401 stops sending from the page: the queue is dropped, later events are refused, the console explains once', async () => {
    const wire = fakeRequests(() => refused(401, null, 'Unknown API key.'));
    const transport = transportOf(wire.requests, { flushDelayMs: 60_000 });
    transport.enqueue(event('e1'));
    transport.enqueue(event('e2'));
    expect(await flushed(transport)).toBe(true);
    expect(transport.enqueue(event('e3'))).toBe(false);
    transport.drain();
    expect(wire.sent.map((request) => request.ids)).toEqual([['e1']]);
    expect(wire.beacons).toEqual([]);
    expect(error.mock.calls).toEqual([[expect.stringMatching(/^\[ContactsIngest\] The ingest API refused the key \(401\): Unknown API key\. Pass init\(\)/)]]);
  });

  test("a 403 names the page's origin as the request maker gives it, and what to ask for", async () => {
    const wire = fakeRequests(() => refused(403, null, 'Origin not allowed for this key.'));
    const transport = transportOf(wire.requests);
    transport.enqueue(event('e1'));
    await flushed(transport);
    expect(error).toHaveBeenCalledWith(expect.stringContaining(`refused this page's origin ${ORIGIN} (403)`));
    expect(error).toHaveBeenCalledWith(expect.stringContaining(`add ${ORIGIN} to the origins of the key`));
  });
});

describe('keepalive', () => {
  test('requests in flight keep under 60,000 keepalive bytes: one that would pass it goes as a plain request', async () => {
    const answers: ((response: TransportResponse) => void)[] = [];
    const sent: TransportRequest[] = [];
    const transport = transportOf({
      send: (request) => {
        sent.push(request);
        return new Promise((resolve) => answers.push(resolve));
      },
      beacon: () => true,
      origin: ORIGIN,
    });
    const body = JSON.stringify({ title: 'x'.repeat(35_000) });
    const first = transport.post('feature-requests', body);
    const second = transport.post('feature-requests', body);
    for (const resolve of answers) resolve(accepted());
    await Promise.all([first, second]);
    // With the first answered, its bytes are free again.
    const third = transport.post('feature-requests', body);
    answers[2]?.(accepted());
    await third;
    expect(sent.map((request) => request.keepalive)).toEqual([true, false, true]);
  });

  test('a keepalive body the browser refuses goes again at once as a plain request', async () => {
    const wire = fakeRequests((request) => (request.keepalive ? new TypeError('keepalive budget') : accepted()));
    const transport = transportOf(wire.requests);
    const answer = await transport.post('feature-requests', '{"title":"Dark mode"}');
    expect(answer?.status).toBe(202);
    expect(wire.sent.map((request) => [request.url, request.keepalive])).toEqual([
      ['https://api.example.com/ingest/v1/feature-requests?key=dfpk_test', true],
      ['https://api.example.com/ingest/v1/feature-requests?key=dfpk_test', false],
    ]);
  });

  test("post() answers the status, the body, the body's error (or the status) and Retry-After", async () => {
    const transport = transportOf(fakeRequests(() => ({ status: 503, body: {}, retryAfter: '2' })).requests);
    expect(await transport.post('feature-requests', '{}')).toEqual({ status: 503, body: {}, error: 'HTTP 503.', retryAfter: '2' });
  });
});

describe('when the page goes', () => {
  test('drain() sends everything pending by beacon, in batches of the request limits, and nothing by fetch', async () => {
    const wire = fakeRequests(accepted);
    const transport = transportOf(wire.requests, { flushDelayMs: 60_000, maxRequestBytes: 1500 });
    transport.enqueue(event('e1'));
    await jest.advanceTimersByTimeAsync(0);
    for (const id of ['e2', 'e3', 'e4']) transport.enqueue(event(id, 'x'.repeat(600)));
    transport.drain();
    expect(wire.beacons).toEqual([
      { url: 'https://api.example.com/ingest/v1/events?key=dfpk_test', ids: ['e2', 'e3'] },
      { url: 'https://api.example.com/ingest/v1/events?key=dfpk_test', ids: ['e4'] },
    ]);
    expect(wire.sent.map((request) => request.ids)).toEqual([['e1']]);
  });

  test('a beacon the browser refuses is split in halves, down to single events', async () => {
    // The browser takes bodies of at most two events.
    const wire = fakeRequests(accepted, (body) => (JSON.parse(body) as { events: unknown[] }).events.length <= 2);
    const transport = transportOf(wire.requests, { flushDelayMs: 60_000 });
    transport.enqueue(event('e0'));
    await jest.advanceTimersByTimeAsync(0);
    for (const id of ['e1', 'e2', 'e3', 'e4', 'e5']) transport.enqueue(event(id));
    transport.drain();
    expect(wire.beacons.map((beacon) => beacon.ids)).toEqual([['e1', 'e2'], ['e3'], ['e4', 'e5']]);
  });

  test('a single event the browser refuses as a beacon goes by request instead', async () => {
    const wire = fakeRequests(accepted, () => false);
    const transport = transportOf(wire.requests, { flushDelayMs: 60_000 });
    transport.enqueue(event('e0'));
    await jest.advanceTimersByTimeAsync(0);
    transport.enqueue(event('e1'));
    transport.drain();
    await jest.advanceTimersByTimeAsync(0);
    expect(wire.beacons).toEqual([]);
    expect(wire.sent.map((request) => request.ids)).toEqual([['e0'], ['e1']]);
  });

  test('events waiting for a retry go by beacon too', async () => {
    const wire = fakeRequests(() => refused(503));
    const transport = transportOf(wire.requests);
    transport.enqueue(event('e1'));
    await jest.advanceTimersByTimeAsync(0);
    transport.drain();
    expect(wire.beacons.map((beacon) => beacon.ids)).toEqual([['e1']]);
  });
});
