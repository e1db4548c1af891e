
import { KeyAdmin } from '../../lambda/store/key-admin';
import { bearer, issueKey, newFactoryId, realDependencies, startLocalApi, tables, testDoc, type LocalApi } from '../support/local-api';

const MINUTE = 60_000;
/** A clock the test moves: 20 s into some minute. */
const clock = { now: Math.floor(Date.now() / MINUTE) * MINUTE + 20_000 };

let apiA: LocalApi;
let apiB: LocalApi;
beforeAll(async () => {
  // Two handler instances on one table: two Lambda containers.
  apiA = await startLocalApi({ ...realDependencies(), now: () => clock.now });
  apiB = await startLocalApi({ ...realDependencies(), now: () => clock.now });
});
afterAll(async () => {
  await apiA.close();
  await apiB.close();
});

const read = (api: LocalApi, key: string, path = '/api/v1/contacts?email=someone%40example.com') =>
  api.request('GET', path, { headers: bearer(key) });

async function keyWithLimit(rateLimit: number) {
  return (await issueKey(newFactoryId('rate'), { rateLimit })).key;
}

describe('per-key rate limit (spec 8): requests per minute, 429 with Retry-After', () => {
  test('admits a burst of a tenth of the limit plus one, then answers 429 with Retry-After and a JSON error', async () => {
    const key = await keyWithLimit(20);
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await read(apiA, key)).status);
    expect(statuses).toEqual([404, 404, 404]);
    const limited = await read(apiA, key);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    expect(limited.json.error).toMatch(/Rate limit of 20 requests per minute/);
  });

  test('Retry-After is the whole seconds until a request would be admitted', async () => {
    const key = await keyWithLimit(1);
    const saved = clock.now;
    await read(apiA, key);
    clock.now = saved + 45_200;
    const limited = await read(apiA, key);
    clock.now = saved;
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('15');
  });

  test('counts every authenticated request, whatever its route or outcome', async () => {
    const key = await keyWithLimit(30); // a burst of 4
    await apiA.request('DELETE', '/api/v1/contacts', { headers: bearer(key) });
    await apiA.request('GET', '/nowhere', { headers: bearer(key) });
    await apiA.request('POST', '/api/v1/contacts', { headers: bearer(key), body: '{' });
    await apiA.request('DELETE', '/api/v1/contacts', { headers: bearer(key) });
    expect((await read(apiA, key)).status).toBe(429);
  });

  test('a throttled key gets 429 before routing (even on an unknown path)', async () => {
    const key = await keyWithLimit(1);
    await read(apiA, key);
    expect((await read(apiA, key, '/nowhere')).status).toBe(429);
  });

  test('does not count requests refused for their Origin header', async () => {
    const key = await keyWithLimit(2);
    for (let i = 0; i < 5; i += 1) {
      await apiA.request('GET', '/api/v1/contacts', { headers: { ...bearer(key), Origin: 'https://x.example' } });
    }
    expect((await read(apiA, key)).status).toBe(404);
  });

  test('admits again once the interval has passed, in whichever container', async () => {
    const key = await keyWithLimit(2); // one every 30 s
    const saved = clock.now;
    expect((await read(apiA, key)).status).toBe(404);
    expect((await read(apiA, key)).status).toBe(429);
    clock.now = saved + 30_000;
    expect((await read(apiA, key)).status).toBe(404);
    expect((await read(apiB, key)).status).toBe(429);
    clock.now = saved + 60_000;
    expect((await read(apiB, key)).status).toBe(404);
    clock.now = saved;
  });

  test('a key gets 30,000 requests per minute unless told otherwise', async () => {
    const admin = new KeyAdmin(testDoc(), tables.keys);
    const created = await admin.create({ factoryId: newFactoryId('rate'), type: 'secret' });
    expect(created.rateLimit).toBe(30_000);
  });
});

describe('the limiter needs no in-memory state', () => {
  test('a fresh container (new handler) sees the requests others made', async () => {
    const key = await keyWithLimit(20); // a burst of 3
    await read(apiA, key);
    await read(apiB, key);
    await read(apiA, key);
    const fresh = await startLocalApi({ ...realDependencies(), now: () => clock.now });
    try {
      expect((await read(fresh, key)).status).toBe(429);
    } finally {
      await fresh.close();
    }
  });
});

