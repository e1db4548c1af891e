import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestMaker } from '../../../browser-sdk/src/transport';

/**
 * The SDK's request maker, with Node's fetch against a server in this
 * process, and the page's `location` and `navigator.sendBeacon` stood in:
 * what the browser suite (test/browser/sdk/) drives in real engines.
 * Loaded by path: it uses the page's globals, type-checked with the SDK's
 * own DOM configuration (browser-sdk/tsconfig.json), not this project's.
 */
const { browserRequests } = jest.requireActual<{ browserRequests: () => RequestMaker }>('../../../browser-sdk/src/browser-requests');

interface Seen {
  method: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
}

let server: Server;
let base: string;
const seen: Seen[] = [];
let reply: { status: number; body: string; headers?: Record<string, string> } = { status: 202, body: '{}' };

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      seen.push({ method: req.method, headers: req.headers, body });
      res.writeHead(reply.status, reply.headers ?? {}).end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const page = globalThis as unknown as { location?: { origin: string }; navigator?: unknown };
const saved = { location: Object.getOwnPropertyDescriptor(globalThis, 'location'), navigator: Object.getOwnPropertyDescriptor(globalThis, 'navigator') };
beforeEach(() => {
  seen.length = 0;
  Object.defineProperty(globalThis, 'location', { value: { origin: 'https://shop.example' }, configurable: true });
});
afterEach(() => {
  for (const name of ['location', 'navigator'] as const) {
    const descriptor = saved[name];
    if (descriptor) Object.defineProperty(globalThis, name, descriptor);
    else delete page[name];
  }
});

describe('requests while the page lives', () => {
  test('a POST of the body as a string (text/plain: no preflight), without cookies, answering the status, JSON body and Retry-After', async () => {
    reply = { status: 429, body: '{"error":"Rate limit exceeded."}', headers: { 'Content-Type': 'application/json', 'Retry-After': '3' } };
    const answer = await browserRequests().send({ url: `${base}/ingest/v1/events?key=dfpk_test`, body: '{"events":[]}', keepalive: true });
    expect(answer).toEqual({ status: 429, body: { error: 'Rate limit exceeded.' }, retryAfter: '3' });
    expect(seen).toEqual([{ method: 'POST', headers: expect.objectContaining({ 'content-type': 'text/plain;charset=UTF-8' }), body: '{"events":[]}' }]);
    expect(seen[0]?.headers.cookie).toBeUndefined();
  });

  test('an answer whose body is not a JSON object is an empty body, and no Retry-After is null', async () => {
    for (const body of ['<html>Bad gateway</html>', '[1,2]', 'null', '']) {
      reply = { status: 502, body };
      expect(await browserRequests().send({ url: `${base}/ingest/v1/events`, body: '{}', keepalive: false })).toEqual({
        status: 502,
        body: {},
        retryAfter: null,
      });
    }
  });

  test('a network failure rejects', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/ingest/v1/events`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(browserRequests().send({ url, body: '{}', keepalive: false })).rejects.toThrow();
  });
});

describe('when the page goes', () => {
  test("a beacon is the browser's sendBeacon of the url and body, and says whether the browser took it", () => {
    const beacons: [string, string][] = [];
    let takes = true;
    Object.defineProperty(globalThis, 'navigator', {
      value: {
        sendBeacon: (url: string, body: string) => {
          beacons.push([url, body]);
          return takes;
        },
      },
      configurable: true,
    });
    const requests = browserRequests();
    expect(requests.beacon('https://api.example.com/ingest/v1/events?key=k', '{"events":[]}')).toBe(true);
    takes = false;
    expect(requests.beacon('https://api.example.com/ingest/v1/events?key=k', '{"events":[1]}')).toBe(false);
    expect(beacons).toEqual([
      ['https://api.example.com/ingest/v1/events?key=k', '{"events":[]}'],
      ['https://api.example.com/ingest/v1/events?key=k', '{"events":[1]}'],
    ]);
  });

  test('a browser without sendBeacon refuses every beacon, so the transport sends by request instead', () => {
    Object.defineProperty(globalThis, 'navigator', { value: {}, configurable: true });
    expect(browserRequests().beacon('https://api.example.com/ingest/v1/events', '{}')).toBe(false);
  });
});

test("the origin is the page's own, as the API checks it", () => {
  expect(browserRequests().origin).toBe('https://shop.example');
});
