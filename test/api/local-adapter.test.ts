import { rawRequest, send } from '../support/http';
import { bearer, issueKey, newFactoryId, startLocalApi, type LocalApi } from '../support/local-api';

/** The local HTTP adapter in front of the handler: it must survive anything a client sends. */
let api: LocalApi;
let auth: Record<string, string>;
beforeAll(async () => {
  api = await startLocalApi();
  auth = bearer((await issueKey(newFactoryId('adapter'))).key);
});
afterAll(() => api.close());

const stillServing = async () => {
  const res = await api.request('GET', '/api/v1/contacts?email=alive%40example.com', { headers: auth });
  expect(res.status).toBe(404);
};

describe('the local HTTP adapter', () => {
  test.each(['__proto__=x', 'constructor=1', 'toString=2&hasOwnProperty=3', '__proto__[polluted]=1'])(
    'treats query parameter names like %s as plain names',
    async (query) => {
      const res = await api.request('GET', `/api/v1/contacts?${query}`, { headers: auth });
      expect(res.status).toBe(400);
      expect(res.json.error).toMatch(/Missing query parameter "email"/);
      await stillServing();
    },
  );

  test('treats a header named __proto__ as a plain header', async () => {
    const res = await send(api.baseUrl, 'GET', '/api/v1/contacts?email=a%40b.co', {
      rawHeaders: ['__proto__', 'x', 'constructor', 'y', 'Authorization', auth.Authorization as string],
    });
    expect(res.status).toBe(404);
    await stillServing();
  });

  test('answers an absolute-form request target like the usual form', async () => {
    const answer = await rawRequest(
      api.baseUrl,
      `GET ${api.baseUrl}/api/v1/contacts?email=a%40b.co HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth.Authorization}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1.1 404/);
    expect(answer).toMatch(/No contact with email/);
  });

  test('measures a body that is not UTF-8 in bytes, as sent', async () => {
    // 300,000 bytes, under the 512 KiB limit; as U+FFFD text it would be 900,000 and answer 413.
    const body = Buffer.concat([Buffer.from('{"email":"bytes@example.com","pad":"'), Buffer.alloc(300_000, 0xff), Buffer.from('"}')]);
    const res = await api.request('POST', '/api/v1/contacts', { headers: auth, body });
    expect(res.status).not.toBe(413);
  });

  test('refuses a body that is not UTF-8 with 400 and stores nothing', async () => {
    const body = Buffer.concat([Buffer.from('{"email":"latin1@example.com","name":"Jos'), Buffer.from([0xe9]), Buffer.from('"}')]);
    const res = await api.request('POST', '/api/v1/contacts', { headers: auth, body });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: expect.stringMatching(/^Request body is not valid UTF-8/) });
    expect((await api.request('GET', '/api/v1/contacts?email=latin1%40example.com', { headers: auth })).status).toBe(404);
  });

  test('answers a request Node cannot parse with a JSON error', async () => {
    const answer = await rawRequest(api.baseUrl, 'FOO /api/v1/contacts HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1.1 400 Bad Request/);
    expect(answer).toMatch(/Content-Type: application\/json/);
    expect(answer).toMatch(/\{"error":"Malformed HTTP request."\}$/);
    await stillServing();
  });

  test('answers oversized headers with 431 and a JSON error', async () => {
    const res = await api.request('GET', '/api/v1/contacts', { headers: { ...auth, 'X-Big': 'x'.repeat(20_000) } });
    expect(res.status).toBe(431);
    expect(res.json).toEqual({ error: 'Request headers are too large.' });
  });

  test("refuses a body over API Gateway's 10 MB before the handler, as API Gateway does", async () => {
    const res = await api.request('POST', '/api/v1/contacts', { headers: auth, body: 'x'.repeat(10 * 1024 * 1024 + 1) });
    expect(res.status).toBe(413);
    expect(res.json).toEqual({ error: expect.stringMatching(/too large/) });
  });

  test('skips a UTF-8 byte order mark before the JSON', async () => {
    const res = await api.request('POST', '/api/v1/contacts', { headers: auth, body: `\ufeff${JSON.stringify({ email: 'bom@example.com' })}` });
    expect([200, 201]).toContain(res.status);
  });
});
