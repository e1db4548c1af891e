import type { Server } from 'node:http';
import { connect } from 'node:net';
import { createHttpAdapter, listen, REQUEST_TIME_LIMITS, type ProxyHandler } from '../../local/harness/http-adapter';
import { parseRawResponse } from '../../tools/fuzz/transport';

/**
 * A client that sends its request slowly gets 408 {"error"} once the header
 * or request time limit passes. The limits are options with small values
 * here (the defaults, 10 s and 30 s, are checked in test/cli/start.test.ts),
 * so no test waits for seconds.
 */
const HEADERS_MS = 300;
const REQUEST_MS = 1200;

/** Every request the handler was called for, as "METHOD path". */
const handled: string[] = [];

/** Answers 200 with the size of the body it got, after `X-Delay` ms. */
const echo: ProxyHandler = async (event) => {
  handled.push(`${event.httpMethod} ${event.path}`);
  await new Promise((resolve) => setTimeout(resolve, Number(event.headers['X-Delay'] ?? 0)));
  return { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ got: (event.body ?? '').length }) };
};

let server: Server;
let port: number;
/** The server's side of each connection, closed or not: what it does once one closes must be over before a test looks. */
const serverSockets: Promise<void>[] = [];
beforeAll(async () => {
  server = createHttpAdapter(echo, { headersTimeoutMs: HEADERS_MS, requestTimeoutMs: REQUEST_MS, maxBodyBytes: 64 });
  server.on('connection', (socket) => serverSockets.push(new Promise((resolve) => socket.on('close', () => resolve()))));
  port = await listen(server, 0, '127.0.0.1');
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

/** Resolves once the server has closed every connection it had, and run what that close started (its callbacks, a handler call). */
async function serverSocketsClosed(): Promise<void> {
  await Promise.all(serverSockets);
  await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Sends `first`, then one byte of `rest` every `everyMs` until the server
 * closes the connection (or `rest` runs out); resolves with all it answered.
 */
function dribble(first: string, rest: string, everyMs = 50): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(first);
      let next = 0;
      timer = setInterval(() => {
        if (next < rest.length && socket.writable) socket.write(rest[next++] as string);
      }, everyMs);
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error)));
    socket.on('close', () => {
      clearInterval(timer);
      resolve(Buffer.concat(chunks));
    });
  });
}

const TOO_SLOW = {
  error: 'The request took too long to arrive: send its headers within 0.3 s and all of it within 1.2 s.',
};

describe('a request that arrives too slowly', () => {
  test('headers that dribble in past the header limit get 408 with a JSON error', async () => {
    // A header line every 50 ms, never the blank line that ends them.
    const answer = parseRawResponse(await dribble('GET /api/v1/contacts HTTP/1.1\r\nHost: x\r\n', 'X-Slow: a\r\n'.repeat(200)));
    expect(answer.status).toBe(408);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers.connection).toBe('close');
    expect(JSON.parse(answer.body)).toEqual(TOO_SLOW);
  });

  test('a connection that sends nothing gets 408 once the header limit passes', async () => {
    const answer = parseRawResponse(await dribble('', ''));
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body)).toEqual(TOO_SLOW);
  });

  test('a body that dribbles in past the request limit gets 408 with a JSON error, and the handler never runs', async () => {
    // 60 bytes announced, one sent every 50 ms: 3 s in all, past the 1.2 s limit.
    handled.length = 0;
    const answer = parseRawResponse(await dribble('POST /api/v1/contacts/slow HTTP/1.1\r\nHost: x\r\nContent-Length: 60\r\n\r\n', 'a'.repeat(60)));
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body)).toEqual(TOO_SLOW);
    await serverSocketsClosed();
    expect(handled).toEqual([]);
  });

  test('the limits cover receiving the request, not answering it: a handler slower than both still answers', async () => {
    const answer = parseRawResponse(await dribble(`GET / HTTP/1.1\r\nHost: x\r\nX-Delay: ${REQUEST_MS + 500}\r\nConnection: close\r\n\r\n`, ''));
    expect(answer.status).toBe(200);
  });

  test('a request already answered (413) gets no second answer when its body keeps dribbling', async () => {
    // Over the 64-byte limit at once: 413 while the rest of the announced body still trickles in.
    const answer = await dribble(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 200\r\n\r\n${'b'.repeat(100)}`, 'b'.repeat(100));
    const text = answer.toString('latin1');
    expect(parseRawResponse(answer).status).toBe(413);
    expect(text.match(/HTTP\/1\.1 /g)).toHaveLength(1);
  });
});

test('without options the limits are 10 s for the headers and 30 s for the whole request', () => {
  const plain = createHttpAdapter(echo);
  expect(REQUEST_TIME_LIMITS).toEqual({ headersMs: 10_000, requestMs: 30_000 });
  expect([plain.headersTimeout, plain.requestTimeout]).toEqual([10_000, 30_000]);
});
