import { createContactsHandler } from '../../../../lambda/contacts/api/routes';
import { MemoryContactStore } from '../../../../lambda/infrastructure/memory/memory-contact-store';
import { MemoryKeyAuthorizer } from '../../../../lambda/infrastructure/memory/memory-key-authorizer';
import { hashSecret } from '../../../../lambda/kernel/api-key';
import { lambdaContext, proxyEvent } from '../../../support/events';

/**
 * The contacts API's route table and precedence (routes.ts), through its
 * handler on in-memory stores: the first of several problems answers. Over
 * HTTP on DynamoDB Local: test/api/routing-and-precedence.test.ts.
 */
const SECRET = `dfsk_${'r'.repeat(43)}`;
const AUTH = { authorization: `Bearer ${SECRET}` };

function api(rateLimit = 100) {
  const keys = new MemoryKeyAuthorizer();
  keys.issue(hashSecret(SECRET), { factoryId: 'fac_routes', keyId: 'key_routes', rateLimit });
  const handler = createContactsHandler({ contacts: new MemoryContactStore(), keys, now: () => Date.parse('2026-11-21T09:00:20Z') });
  return async (request: { method?: string; path?: string; headers?: Record<string, string>; body?: string; query?: Record<string, string> }) => {
    const answer = await handler(
      proxyEvent({
        httpMethod: request.method ?? 'GET',
        path: request.path ?? '/api/v1/contacts',
        headers: request.headers ?? {},
        body: request.body ?? null,
        queryStringParameters: request.query ?? null,
        multiValueQueryStringParameters: request.query ? Object.fromEntries(Object.entries(request.query).map(([k, v]) => [k, [v]])) : null,
      }),
      lambdaContext(),
    );
    return { status: answer.statusCode, body: JSON.parse(answer.body) as Record<string, any>, headers: answer.headers ?? {} };
  };
}

describe('the contacts API, in its precedence', () => {
  test('an Origin is refused before the key is even looked at (403)', async () => {
    const call = api();
    expect((await call({ headers: { origin: 'https://evil.example' } })).status).toBe(403);
  });

  test('no key is 401; a key over its limit is 429 with Retry-After, before an unknown path is 404', async () => {
    const call = api(1);
    expect((await call({ path: '/api/v1/nothing' })).status).toBe(401);
    expect((await call({ path: '/api/v1/nothing', headers: AUTH })).status).toBe(404);
    const throttled = await call({ path: '/api/v1/nothing', headers: AUTH });
    expect([throttled.status, throttled.headers['Retry-After'] ?? throttled.headers['retry-after']]).toEqual([429, expect.any(String)]);
  });

  test('a path under another method is 405; a body that is not JSON 400; invalid content 422', async () => {
    const call = api();
    expect((await call({ method: 'DELETE', path: '/api/v1/contacts/ct_0123456789abcdef', headers: AUTH })).status).toBe(405);
    const headers = { ...AUTH, 'content-type': 'application/json' };
    expect((await call({ method: 'POST', headers, body: '{not json' })).status).toBe(400);
    const invalid = await call({ method: 'POST', headers, body: '{"email": "nope"}' });
    expect([invalid.status, invalid.body.error]).toEqual([422, expect.stringMatching(/^email must contain exactly one "@"/)]);
  });

  test('a body over 512 KiB is 413, before it is parsed', async () => {
    const call = api();
    const big = await call({
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: `{"email": "a@b.co", "name": "${'x'.repeat(600 * 1024)}"}`,
    });
    expect(big.status).toBe(413);
  });

  test('an upsert then reads by id and by email; an id of nobody is 404', async () => {
    const call = api();
    const created = await call({ method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: '{"email": "Ada@Example.com"}' });
    expect([created.status, created.body.created]).toEqual([201, true]);
    const id = created.body.contact.id as string;
    expect((await call({ path: `/api/v1/contacts/${id}`, headers: AUTH })).body.contact.email).toBe('ada@example.com');
    expect((await call({ headers: AUTH, query: { email: 'ADA@example.com' } })).body.contact.id).toBe(id);
    expect((await call({ path: '/api/v1/contacts/ct_0000000000000000', headers: AUTH })).status).toBe(404);
  });

  test('every answer carries no CORS header, and a keyed one its rate-limit headers', async () => {
    const answer = await api()({ headers: AUTH, query: { email: 'a@b.co' } });
    expect(Object.keys(answer.headers).some((name) => /^access-control-/i.test(name))).toBe(false);
    expect(Object.keys(answer.headers).map((name) => name.toLowerCase())).toEqual(expect.arrayContaining(['ratelimit', 'ratelimit-policy']));
  });
});
