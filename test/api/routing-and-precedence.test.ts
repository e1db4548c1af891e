import { bearer, issueKey, newFactoryId, startLocalApi, type LocalApi } from '../support/local-api';

let api: LocalApi;
let auth: Record<string, string>;
beforeAll(async () => {
  api = await startLocalApi();
  auth = bearer((await issueKey(newFactoryId('routing'))).key);
});
afterAll(() => api.close());

const LIMIT = 512 * 1024;
/** A valid upsert body of exactly `bytes` bytes (padded in an ignored field). */
const bodyOfSize = (bytes: number) => {
  const base = JSON.stringify({ email: 'big@example.com', pad: '' });
  return JSON.stringify({ email: 'big@example.com', pad: 'x'.repeat(bytes - base.length) });
};

describe('methods and paths (docs/contacts-api.md#not-in-this-api)', () => {
  test.each(['PUT', 'PATCH', 'DELETE'])('%s /api/v1/contacts is 405 with Allow: GET, POST', async (method) => {
    const res = await api.request(method, '/api/v1/contacts', { headers: auth, body: { email: 'a@b.co' } });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, POST');
    expect(res.json).toEqual({ error: expect.stringContaining(method) });
  });

  test.each(['POST', 'PUT', 'PATCH', 'DELETE'])('%s /api/v1/contacts/{id} is 405 with Allow: GET', async (method) => {
    const res = await api.request(method, '/api/v1/contacts/ct_0123456789abcdef', { headers: auth });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET');
  });

  test.each(['/api/v1/companies', '/api/v2/contacts', '/', '/api/v1/contacts/ct_0123456789abcdef/notes', '/api/v1/contacts:batch'])(
    'GET %s is 404 with a JSON error',
    async (path) => {
      const res = await api.request('GET', path, { headers: auth });
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ error: expect.stringMatching(/No such endpoint/) });
    },
  );

  test('a trailing slash reaches the same endpoint', async () => {
    const res = await api.request('GET', '/api/v1/contacts/?email=nobody%40example.com', { headers: auth });
    expect(res.status).toBe(404);
    expect(res.json.error).toMatch(/No contact with email/);
  });
});

describe('request bodies (docs/contacts-api.md#errors, docs/contacts-api.md#limits)', () => {
  test('a body over 512 KiB is 413', async () => {
    const res = await api.request('POST', '/api/v1/contacts', { headers: auth, body: bodyOfSize(LIMIT + 1) });
    expect(res.status).toBe(413);
    expect(res.json.error).toMatch(/524289 bytes; the limit is 524288 bytes/);
  });

  test('a body of exactly 512 KiB is accepted', async () => {
    const res = await api.request('POST', '/api/v1/contacts', { headers: auth, body: bodyOfSize(LIMIT) });
    expect([200, 201]).toContain(res.status);
  });

  test('malformed JSON is 400', async () => {
    for (const text of ['{', '{"email": "a@b.co",}', "{'email': 'a@b.co'}", 'email=a@b.co']) {
      const res = await api.request('POST', '/api/v1/contacts', { headers: auth, body: text });
      expect(res.status).toBe(400);
      expect(res.json.error).toMatch(/not valid JSON/);
    }
  });

  test('an empty body is 400', async () => {
    const res = await api.request('POST', '/api/v1/contacts', { headers: auth, body: '' });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(/empty/);
  });

  test('a JSON body is read whatever its Content-Type says', async () => {
    const res = await api.request('POST', '/api/v1/contacts', {
      headers: { ...auth, 'Content-Type': 'text/plain' },
      body: JSON.stringify({ email: 'typed@example.com' }),
    });
    expect([200, 201]).toContain(res.status);
  });
});

describe('precedence when several errors apply (docs/contacts-api.md#precedence)', () => {
  const origin = { Origin: 'https://x.example' };
  const big = bodyOfSize(LIMIT + 10);

  test('Origin (403) comes before a bad key (401)', async () => {
    const res = await api.request('POST', '/api/v1/contacts', { headers: { ...origin, ...bearer('dfsk_nope') }, body: '{' });
    expect(res.status).toBe(403);
  });

  test('a bad key (401) comes before an unknown path (404) and a wrong method (405)', async () => {
    expect((await api.request('GET', '/nowhere')).status).toBe(401);
    expect((await api.request('DELETE', '/api/v1/contacts')).status).toBe(401);
  });

  test('a wrong method (405) comes before a body too large (413)', async () => {
    const res = await api.request('PUT', '/api/v1/contacts', { headers: auth, body: big });
    expect(res.status).toBe(405);
  });

  test('a body too large (413) comes before malformed JSON (400)', async () => {
    const res = await api.request('POST', '/api/v1/contacts', { headers: auth, body: `{${'x'.repeat(LIMIT)}` });
    expect(res.status).toBe(413);
  });

  test('malformed JSON (400) comes before validation (422)', async () => {
    const res = await api.request('POST', '/api/v1/contacts', { headers: auth, body: '{"email": "not-an-email", "source": "web"' });
    expect(res.status).toBe(400);
  });
});
