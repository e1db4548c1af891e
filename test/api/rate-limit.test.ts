import { intervalUs, perMinutePolicy } from '../../lambda/kernel/rate-limit';
import { KeyAdmin } from '../../lambda/infrastructure/store/keys/key-admin';
import type { HttpResponse } from '../support/http';
import { bearer, issueKey, newFactoryId, realDependencies, startLocalApi, tables, testDoc, type LocalApi } from '../support/local-api';
import { boundOf, mostInAnySpan } from '../support/rate-model';

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

const read = (api: LocalApi, key: string, path = '/api/v1/contacts?email=someone%40example.com') => api.request('GET', path, { headers: bearer(key) });

async function keyWithLimit(rateLimit: number) {
  return (await issueKey(newFactoryId('rate'), { rateLimit })).key;
}

describe('per-key rate limit (docs/contacts-api.md#limits): requests per minute, 429 with Retry-After', () => {
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

/** Sends `count` reads with the key, one at a time, at the times `at(i)` (ms), alternating between the containers. */
async function paced(key: string, count: number, at: (i: number) => number): Promise<{ at: number; res: HttpResponse }[]> {
  const answers = [];
  for (let i = 0; i < count; i += 1) {
    clock.now = at(i);
    answers.push({ at: clock.now, res: await read(i % 2 ? apiB : apiA, key) });
  }
  return answers;
}

const passed = <T extends { res: HttpResponse }>(answers: T[]): T[] => answers.filter((a) => a.res.status === 404);

describe('the limit holds in every 60 s span, over HTTP, across two containers', () => {
  test('the limit just before a minute boundary and again just after: at most the limit plus the burst pass', async () => {
    const limit = 20; // a burst of 2
    const key = await keyWithLimit(limit);
    const boundary = Math.floor(clock.now / MINUTE) * MINUTE + 5 * MINUTE;
    const before = Array.from({ length: limit }, (_, i) => boundary - 400 + i * 10);
    const after = Array.from({ length: limit }, (_, i) => boundary + i * 10);
    const answers = await paced(key, 2 * limit, (i) => [...before, ...after][i] as number);
    expect(passed(answers).length).toBeLessThanOrEqual(boundOf(limit));
    expect(passed(answers).length).toBeGreaterThanOrEqual(perMinutePolicy(limit).burst + 1);
    expect(answers.filter((a) => a.res.status !== 404 && a.res.status !== 429)).toEqual([]);
  });

  test("a steady run at 1.5× the rate for 10 minutes gets the limit's rate: not more, not much less", async () => {
    const limit = 10; // T = 6 s, a burst of 1
    const key = await keyWithLimit(limit);
    const start = clock.now + 10 * MINUTE;
    const answers = await paced(key, 150, (i) => start + i * 4_000);
    const got = passed(answers);
    expect(got.length).toBeGreaterThanOrEqual(10 * limit);
    expect(got.length).toBeLessThanOrEqual(10 * limit + perMinutePolicy(limit).burst + 1);
    expect(mostInAnySpan(got.map((a) => a.at * 1000))).toBeLessThanOrEqual(boundOf(limit));
  });

  test('a steady caller at 0.95× the rate is never refused, whichever container it reaches', async () => {
    const limit = 20;
    const key = await keyWithLimit(limit);
    const start = clock.now + 30 * MINUTE;
    const gap = intervalUs(perMinutePolicy(limit)) / 1000 / 0.95;
    const answers = await paced(key, 60, (i) => start + i * gap);
    expect(answers.map((a) => a.res.status).filter((status) => status !== 404)).toEqual([]);
  });
});

describe('rate-limit headers (IETF draft-ietf-httpapi-ratelimit-headers-11)', () => {
  const fields = (res: HttpResponse) => ({ policy: res.headers['ratelimit-policy'], now: res.headers.ratelimit });

  test('every authenticated answer says the policy and where the key stands, counting down through the burst', async () => {
    const key = await keyWithLimit(100); // a burst of 10, T = 600 ms
    clock.now += 40 * MINUTE;
    const ok = await apiA.request('POST', '/api/v1/contacts', { headers: bearer(key), body: { email: 'h@example.com' } });
    const miss = await read(apiA, key);
    const invalid = await apiA.request('POST', '/api/v1/contacts', { headers: bearer(key), body: { email: 'nope' } });
    const wrongMethod = await apiA.request('DELETE', '/api/v1/contacts', { headers: bearer(key) });
    expect([ok.status, miss.status, invalid.status, wrongMethod.status]).toEqual([201, 404, 422, 405]);
    expect([ok, miss, invalid, wrongMethod].map(fields)).toEqual([
      { policy: '"per-key";q=100;w=60', now: '"per-key";r=10;t=1' },
      { policy: '"per-key";q=100;w=60', now: '"per-key";r=9;t=1' },
      { policy: '"per-key";q=100;w=60', now: '"per-key";r=8;t=1' },
      { policy: '"per-key";q=100;w=60', now: '"per-key";r=7;t=1' },
    ]);
  });

  test('a 429 carries them too, with nothing remaining and the window equal to Retry-After', async () => {
    const key = await keyWithLimit(1);
    clock.now += 50 * MINUTE;
    expect(fields(await read(apiA, key))).toEqual({ policy: '"per-key";q=1;w=60', now: '"per-key";r=0;t=60' });
    clock.now += 15_000;
    const limited = await read(apiB, key);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('45');
    expect(fields(limited)).toEqual({ policy: '"per-key";q=1;w=60', now: '"per-key";r=0;t=45' });
  });

  test("a warm read (started before the key check answered) carries the check's own values", async () => {
    const key = await keyWithLimit(100);
    clock.now += 60 * MINUTE;
    await read(apiA, key); // the container now knows the key: its next GET reads in parallel with the check
    const warm = await apiA.request('GET', '/api/v1/contacts/ct_0000000000000000', { headers: bearer(key) });
    expect(warm.status).toBe(404);
    expect(fields(warm).now).toBe('"per-key";r=9;t=1');
  });

  test('answers refused before the key check carry none: an Origin header (403), a missing or malformed key (401), an unknown key (401)', async () => {
    const key = await keyWithLimit(100);
    const answers = [
      await apiA.request('GET', '/api/v1/contacts?email=a%40example.com', { headers: { ...bearer(key), Origin: 'https://x.example' } }),
      await apiA.request('GET', '/api/v1/contacts?email=a%40example.com'),
      await apiA.request('GET', '/api/v1/contacts?email=a%40example.com', { headers: bearer('dfsk_short') }),
      await apiA.request('GET', '/api/v1/contacts?email=a%40example.com', { headers: bearer(`dfsk_${'x'.repeat(43)}`) }),
    ];
    expect(answers.map((res) => res.status)).toEqual([403, 401, 401, 401]);
    for (const res of answers) expect(Object.keys(res.headers).filter((name) => name.startsWith('ratelimit'))).toEqual([]);
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
