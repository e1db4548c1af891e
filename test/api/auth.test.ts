import { KeyAdmin } from '../../lambda/infrastructure/store/keys/key-admin';
import { send } from '../support/http';
import { bearer, issueKey, newFactoryId, revokeKey, startLocalApi, tables, testDoc, type LocalApi } from '../support/local-api';

let api: LocalApi;
let factoryId: string;
let key: string;
beforeAll(async () => {
  api = await startLocalApi();
  factoryId = newFactoryId('auth');
  key = (await issueKey(factoryId)).key;
});
afterAll(() => api.close());

const body = { email: 'auth@example.com' };

describe('authentication (docs/contacts-api.md#errors): every failure is 401 with a JSON error', () => {
  const expect401 = (res: { status: number; json: any; headers: Record<string, unknown> }) => {
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ error: expect.any(String) });
    expect(res.headers['www-authenticate']).toBe('Bearer realm="contacts"');
  };

  test('a missing Authorization header', async () => {
    expect401(await api.request('POST', '/api/v1/contacts', { body }));
  });

  test('a key only in a query parameter is not read', async () => {
    for (const name of ['api_key', 'key', 'apiKey', 'authorization']) {
      const res = await api.request('GET', `/api/v1/contacts?email=auth%40example.com&${name}=${key}`);
      expect401(res);
      expect(res.json.error).toMatch(/query parameters are not read/);
    }
  });

  test('an unknown key of the right shape', async () => {
    expect401(await api.request('POST', '/api/v1/contacts', { headers: bearer(`dfsk_${'A'.repeat(43)}`), body }));
  });

  test('a malformed key', async () => {
    for (const bad of ['dfsk_', 'dfsk_short', 'sk_live_123', `${key.slice(0, -1)}!`]) {
      expect401(await api.request('POST', '/api/v1/contacts', { headers: bearer(bad), body }));
    }
  });

  test('a scheme other than Bearer, or none', async () => {
    for (const value of [`Basic ${key}`, key, `Token ${key}`]) {
      expect401(await api.request('POST', '/api/v1/contacts', { headers: { Authorization: value }, body }));
    }
  });

  test('a publishable key, even a real active one', async () => {
    const admin = new KeyAdmin(testDoc(), tables.keys);
    const publishable = await admin.create({ factoryId, type: 'publishable', origins: ['https://shop.example.com'] });
    expect(publishable.key).toMatch(/^dfpk_/);
    const res = await api.request('POST', '/api/v1/contacts', { headers: bearer(publishable.key), body });
    expect401(res);
    const unknown = await api.request('POST', '/api/v1/contacts', { headers: bearer(`dfsk_${'Z'.repeat(43)}`), body });
    expect(res.json).toEqual(unknown.json);
  });

  test('several Authorization headers are refused, whatever their order', async () => {
    for (const order of [
      [key, 'dfsk_nope'],
      ['dfsk_nope', key],
    ]) {
      const res = await send(api.baseUrl, 'GET', '/api/v1/contacts?email=a%40b.co', {
        rawHeaders: order.flatMap((k) => ['Authorization', `Bearer ${k}`]),
      });
      expect401(res);
      expect(res.json.error).toMatch(/one Authorization header/);
    }
  });

  test('a revoked key fails on its very next request', async () => {
    const issued = await issueKey(factoryId);
    const before = await api.request('POST', '/api/v1/contacts', { headers: bearer(issued.key), body });
    expect(before.status).toBeLessThan(300);
    await revokeKey(issued.keyId);
    const after = await api.request('POST', '/api/v1/contacts', { headers: bearer(issued.key), body });
    expect401(after);
    expect(after.json.error).toMatch(/revoked/);
  });

  test('the Bearer scheme is case-insensitive', async () => {
    const res = await api.request('POST', '/api/v1/contacts', { headers: { Authorization: `bearer ${key}` }, body });
    expect(res.status).toBeLessThan(300);
  });
});

describe('tenant isolation (docs/contacts-api.md#read-a-contact--get-apiv1contactsid): the factory comes from the key only', () => {
  test("another factory's key gets 404 for the first factory's id and email", async () => {
    const created = await api.request('POST', '/api/v1/contacts', { headers: bearer(key), body: { email: 'private@example.com' } });
    const other = bearer((await issueKey(newFactoryId('other'))).key);
    const byId = await api.request('GET', `/api/v1/contacts/${created.json.contact.id}`, { headers: other });
    const byEmail = await api.request('GET', '/api/v1/contacts?email=private%40example.com', { headers: other });
    expect([byId.status, byEmail.status]).toEqual([404, 404]);
  });

  test('the same email in two factories is two contacts with different ids', async () => {
    const otherFactory = newFactoryId('other');
    const other = bearer((await issueKey(otherFactory)).key);
    const mine = await api.request('POST', '/api/v1/contacts', { headers: bearer(key), body: { email: 'both@example.com', name: 'Mine' } });
    const theirs = await api.request('POST', '/api/v1/contacts', { headers: other, body: { email: 'both@example.com' } });
    expect(theirs.status).toBe(201);
    expect(theirs.json.contact.factoryId).toBe(otherFactory);
    expect(theirs.json.contact.id).not.toBe(mine.json.contact.id);
    expect(theirs.json.contact).not.toHaveProperty('name');
  });

  test('a factoryId in the body is ignored', async () => {
    const res = await api.request('POST', '/api/v1/contacts', {
      headers: bearer(key),
      body: { email: 'spoof@example.com', factoryId: 'fac_victim' },
    });
    expect(res.json.contact.factoryId).toBe(factoryId);
  });
});

describe('Origin header and CORS (docs/contacts-api.md#not-in-this-api)', () => {
  test('any request with an Origin header is refused with 403, whatever the key', async () => {
    for (const headers of [
      { Origin: 'https://evil.example', ...bearer(key) },
      { Origin: 'https://evil.example' },
      { Origin: 'null', ...bearer('dfsk_unknown_key_1234567890') },
      { Origin: '', ...bearer(key) },
    ]) {
      const res = await api.request('GET', '/api/v1/contacts?email=auth%40example.com', { headers });
      expect(res.status).toBe(403);
      expect(res.json.error).toMatch(/Origin/);
    }
  });

  test('a CORS preflight gets 403 and no Access-Control-* header', async () => {
    const res = await api.request('OPTIONS', '/api/v1/contacts', {
      headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(res.status).toBe(403);
    expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });

  test('no response carries an Access-Control-* header', async () => {
    const responses = await Promise.all([
      api.request('POST', '/api/v1/contacts', { headers: bearer(key), body }),
      api.request('GET', '/api/v1/contacts?email=auth%40example.com', { headers: bearer(key) }),
      api.request('GET', '/api/v1/contacts/ct_0000000000000000', { headers: bearer(key) }),
      api.request('DELETE', '/api/v1/contacts', { headers: bearer(key) }),
      api.request('POST', '/api/v1/contacts', { headers: bearer(key), body: '{' }),
      api.request('POST', '/api/v1/contacts', { body }),
    ]);
    for (const res of responses) {
      expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    }
  });
});
