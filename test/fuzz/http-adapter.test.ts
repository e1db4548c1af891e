import { connect } from 'node:net';
import { createHttpAdapter, listen } from '../../local/harness/http-adapter';
import { apiRequest, type FuzzRequest } from '../../tools/fuzz/request';
import { runFuzz, startFuzzTarget, type FuzzTarget } from '../../tools/fuzz/run';
import { parseRawResponse, rawBytes, sendRaw } from '../../tools/fuzz/transport';
import { tables, testDoc } from '../support/local-api';

/** What the fuzz found in the HTTP adapter (npm start's front door), pinned as examples. */
let target: FuzzTarget;
beforeAll(async () => {
  target = await startFuzzTarget(testDoc({ requestTimeoutMs: 10_000 }), tables);
});
afterAll(() => target.close());

const json = (body: string) => JSON.parse(body) as { error?: string };

test('a target that is no URL ("GET http://a:99999/…") is a 404, and the server keeps serving', async () => {
  const bad: FuzzRequest = apiRequest('GET', 'http://a:99999/api/v1/contacts', target.world.own.key);
  const res = await sendRaw(target.port, bad);
  expect(res.status).toBe(404);
  expect(json(res.body)).toEqual({ error: expect.stringContaining('No such endpoint') });
  expect((await sendRaw(target.port, apiRequest('GET', `/api/v1/contacts/${target.world.own.contacts[0]?.id}`, target.world.own.key))).status).toBe(200);
});

test('CONNECT gets an answer from the API like any other method, not a closed connection', async () => {
  const res = await sendRaw(target.port, apiRequest('CONNECT', '/api/v1/contacts', target.world.own.key));
  expect(res.status).toBe(405);
  expect(res.headers.allow).toBe('GET, POST');
  expect(json(res.body)).toEqual({ error: expect.any(String) });
});

test('a CONNECT connection closes after its answer, even with bytes after its head', async () => {
  // A slow handler, so the bytes after the head (tunnel data, for Node) arrive before the answer.
  const slow = async () => {
    await new Promise((resolve) => setTimeout(resolve, 150));
    return { statusCode: 405, headers: { 'Content-Type': 'application/json', Allow: 'GET, POST' }, body: '{"error":"no"}' };
  };
  const server = createHttpAdapter(slow);
  const port = await listen(server, 0, '127.0.0.1');
  const bytes = rawBytes(apiRequest('CONNECT', '/api/v1/contacts', 'dfsk_x', { email: 'a@b.co' }), `127.0.0.1:${port}`);
  const split = bytes.indexOf('\r\n\r\n') + 4;
  const res = await new Promise<ReturnType<typeof parseRawResponse>>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(bytes.subarray(0, split));
      setTimeout(() => socket.write(bytes.subarray(split)), 30);
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      try {
        resolve(parseRawResponse(Buffer.concat(chunks)));
      } catch (error) {
        reject(error);
      }
    });
  });
  expect(res.status).toBe(405);
  // A socket left open keeps close() (and npm start's shutdown) waiting forever.
  const closed = new Promise<string>((resolve) => server.close(() => resolve('closed')));
  const late = new Promise<string>((resolve) => setTimeout(() => resolve('still open after 2 s'), 2000).unref());
  expect(await Promise.race([closed, late])).toBe('closed');
});

test('Authorization sent twice, spelt in two cases, is sent twice: 401', async () => {
  const twice: FuzzRequest = {
    ...apiRequest('GET', `/api/v1/contacts/${target.world.own.contacts[0]?.id}`, target.world.own.key),
  };
  twice.headers = [...twice.headers, ['authorization', `Bearer ${target.world.own.key}`]];
  const res = await sendRaw(target.port, twice);
  expect(res.status).toBe(401);
  expect(res.headers['www-authenticate']).toBe('Bearer realm="contacts"');
});

test('the replay of a fuzz counterexample runs just that one request', async () => {
  const summary = await runFuzz(target, { runs: { 'in-process': 0, http: 0 }, seed: 1, replay: { channel: 'in-process', seed: 42, path: '0' } });
  expect(summary.requests).toBe(1);
});
