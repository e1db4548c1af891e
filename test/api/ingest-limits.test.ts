import { DEFAULT_ADDRESS_LIMITS } from '../../lambda/ingest/limits';
import { featureRequest, ingestTenant, randomClient, SITE, validEvent } from '../support/ingest';
import { issuePublishableKey, newFactoryId, realIngestDependencies, revokeKey, startLocalHost, type LocalApi } from '../support/local-api';

/**
 * The ingest limits with a clock the test moves, on two handler instances
 * sharing the tables (two Lambda containers): enforced in DynamoDB, so they
 * hold across containers and concurrent requests.
 */
const MINUTE = 60_000;
const clock = { now: Math.floor(Date.now() / MINUTE) * MINUTE + 20_000 };
let apiA: LocalApi;
let apiB: LocalApi;
beforeAll(async () => {
  apiA = await startLocalHost({ ...realIngestDependencies(), now: () => clock.now });
  apiB = await startLocalHost({ ...realIngestDependencies(), now: () => clock.now });
});
afterAll(async () => {
  await apiA.close();
  await apiB.close();
});

/** One event of a tenant's key sent through another container. */
const tenantOn = (api: LocalApi, key: string, event: Record<string, unknown>) =>
  api.request('POST', '/ingest/v1/events', {
    headers: { Origin: SITE, 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
    body: { events: [event] },
    localAddress: randomClient(),
  });

/** An event from `from` with `key`, through the given container. */
const eventFrom = (api: LocalApi, key: string, from: string) =>
  api.request('POST', '/ingest/v1/events', {
    headers: { Origin: SITE, 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
    body: { events: [validEvent()] },
    localAddress: from,
  });

describe('per key and client address: 60 per minute', () => {
  test('a burst of 7 from one address, across both containers, then 429 with Retry-After 1', async () => {
    const tenant = await ingestTenant(apiA);
    const from = randomClient();
    const statuses = [];
    for (let i = 0; i < 7; i += 1) statuses.push((await eventFrom(i % 2 === 0 ? apiA : apiB, tenant.key, from)).status);
    const limited = await eventFrom(apiA, tenant.key, from);
    expect(statuses).toEqual(Array(7).fill(202));
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('1');
    expect(limited.json.error).toMatch(/Too many requests from your address with this key/);
    // Another address, or another key from this address, is another client.
    expect((await eventFrom(apiB, tenant.key, randomClient())).status).toBe(202);
    expect((await eventFrom(apiB, (await ingestTenant(apiB)).key, from)).status).toBe(202);
  });

  test('20 concurrent requests from one address over two containers: exactly 7 admitted', async () => {
    const tenant = await ingestTenant(apiA);
    const from = randomClient();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => eventFrom(i % 2 === 0 ? apiA : apiB, tenant.key, from)));
    expect(answers.filter((res) => res.status === 202)).toHaveLength(7);
    expect(answers.filter((res) => res.status === 429)).toHaveLength(13);
  });

  test('admits again as time passes: one a second', async () => {
    const tenant = await ingestTenant(apiA);
    const from = randomClient();
    const saved = clock.now;
    for (let i = 0; i < 7; i += 1) await eventFrom(apiA, tenant.key, from);
    expect((await eventFrom(apiA, tenant.key, from)).status).toBe(429);
    clock.now = saved + 1000;
    expect((await eventFrom(apiB, tenant.key, from)).status).toBe(202);
    expect((await eventFrom(apiA, tenant.key, from)).status).toBe(429);
    clock.now = saved;
  });
});

describe('a servers key: its backend is limited per key, not by the per-address rule', () => {
  test("a backend's 15 requests from one address without Origin all pass (the key's limit holds them); the same key's pages from that address still meet the address rule", async () => {
    const factoryId = newFactoryId('servers');
    const { key } = await issuePublishableKey(factoryId, [SITE], { servers: true, rateLimit: 6000 });
    const from = randomClient();
    const fromBackend = (api: LocalApi) =>
      api.request('POST', '/ingest/v1/events', {
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
        body: { events: [validEvent()] },
        localAddress: from,
      });
    const statuses = [];
    for (let i = 0; i < 15; i += 1) statuses.push((await fromBackend(i % 2 === 0 ? apiA : apiB)).status);
    expect(statuses).toEqual(Array(15).fill(202));
    const pages = [];
    for (let i = 0; i < 8; i += 1) pages.push((await eventFrom(apiA, key, from)).status);
    expect(pages).toEqual([...Array(7).fill(202), 429]);
  });

  test("past the key's own limit a backend gets 429 with Retry-After, never the address's words", async () => {
    const factoryId = newFactoryId('servers');
    const { key } = await issuePublishableKey(factoryId, [SITE], { servers: true, rateLimit: 20 });
    const answers = [];
    for (let i = 0; i < 5; i += 1) {
      answers.push(
        await apiA.request('POST', '/ingest/v1/events', {
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
          body: { events: [validEvent({ message: `${['cart', 'checkout', 'search', 'login', 'profile'][i]} failed` })] },
          localAddress: '127.0.0.9',
        }),
      );
    }
    const refused = answers.find((answer) => answer.status === 429);
    expect(refused?.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused?.json.error).toMatch(/for this key/);
    expect(answers.map((answer) => answer.json.error ?? '').join(' ')).not.toMatch(/from your address/);
  });
});

describe('feature requests per key and address: 10 per hour', () => {
  test('2 at once, then one every 6 minutes, in whichever container', async () => {
    const tenant = await ingestTenant(apiA);
    const from = randomClient();
    const saved = clock.now;
    const post = (api: LocalApi) =>
      api.request('POST', '/ingest/v1/feature-requests', {
        headers: { Origin: SITE, 'Content-Type': 'application/json', Authorization: `Bearer ${tenant.key}` },
        body: featureRequest(),
        localAddress: from,
      });
    expect([(await post(apiA)).status, (await post(apiB)).status]).toEqual([201, 201]);
    const limited = await post(apiA);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('360');
    clock.now = saved + 6 * MINUTE;
    expect((await post(apiB)).status).toBe(201);
    expect((await post(apiA)).status).toBe(429);
    clock.now = saved;
  });
});

/** An error of its own: each is another issue, held by no other's limit. */
const distinct = (i: number) => validEvent({ message: `Error${i}: distinct ${i}` });

describe('per key: 600 per minute by default', () => {
  test('a burst of 61 at once from many addresses, then 429 for the key', async () => {
    const tenant = await ingestTenant(apiA);
    const statuses: number[] = [];
    for (let i = 0; i < 61; i += 1) statuses.push((await tenant.events([distinct(i)])).status);
    expect(statuses).toEqual(Array(61).fill(202));
    const limited = await tenant.events([distinct(61)]);
    expect(limited.status).toBe(429);
    expect(limited.json.error).toMatch(/Rate limit of 600 requests per minute exceeded for this key/);
  }, 60_000);

  test('taken in leases by two containers, the key never admits more than its burst, and wastes at most a lease per container', async () => {
    const tenant = await ingestTenant(apiA);
    const answers = await Promise.all(Array.from({ length: 90 }, (_, i) => (i % 2 ? tenant.events([distinct(i)]) : tenantOn(apiB, tenant.key, distinct(i)))));
    const admitted = answers.filter((res) => res.status === 202).length;
    expect(admitted).toBeLessThanOrEqual(61);
    // A lease is at most a second of the limit (10 requests): what one container holds unused when the burst ends is lost.
    expect(admitted).toBeGreaterThanOrEqual(61 - 2 * 10);
    expect(answers.filter((res) => res.status !== 202).map((res) => [res.status, /for this key/.test(res.json.error)])).toEqual(
      Array(90 - admitted).fill([429, true]),
    );
  }, 60_000);
});

describe("per issue: half of the key's requests", () => {
  test('one error takes a burst of 31 of a 600-a-minute key, then 429 for it, while another error still passes', async () => {
    const tenant = await ingestTenant(apiA);
    const storm = validEvent({ message: 'TypeError: the storm' });
    const statuses: number[] = [];
    for (let i = 0; i < 32; i += 1) statuses.push((await tenant.events([{ ...storm, eventId: crypto.randomUUID() }])).status);
    expect(statuses).toEqual([...Array(31).fill(202), 429]);
    const refused = await tenant.events([{ ...storm, eventId: crypto.randomUUID() }]);
    expect(refused.json.error).toMatch(/reported more often than its limit \(half of this key's 600 requests per minute\)/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await tenant.events([distinct(1)])).status).toBe(202);
  }, 60_000);

  test('a request mixing a held error with another stores the other and answers 429; sent again, the stored one is a duplicate', async () => {
    const tenant = await ingestTenant(apiA);
    const storm = validEvent({ message: 'TypeError: the storm' });
    for (let i = 0; i < 31; i += 1) await tenant.events([{ ...storm, eventId: crypto.randomUUID() }]);
    const other = distinct(2);
    const mixed = [{ ...storm, eventId: crypto.randomUUID() }, other];
    const first = await tenant.events(mixed);
    expect(first.status).toBe(429);
    expect(first.json.error).toMatch(/1 of these events belong to an error reported more often than its limit.*the other 1 were stored/);
    clock.now += MINUTE;
    expect((await tenant.events(mixed)).json).toEqual({ accepted: 1, duplicates: 1, rejected: [] });
    clock.now += MINUTE;
  }, 60_000);
});

test("the limits are the contract's", () => {
  expect(DEFAULT_ADDRESS_LIMITS.requests).toEqual({ limit: 60, periodMs: MINUTE, burst: 6 });
  expect(DEFAULT_ADDRESS_LIMITS.featureRequests).toEqual({ limit: 10, periodMs: 60 * MINUTE, burst: 1 });
});

describe('revoking a publishable key', () => {
  test('is refused within a second in a container that holds a lease of it, at once in one that does not', async () => {
    const tenant = await ingestTenant(apiA);
    for (let i = 0; i < 6; i += 1) expect((await tenant.events([distinct(i)])).status).toBe(202);
    await revokeKey(tenant.keyId);
    // apiA holds a lease of the key: it may answer from it until the lease runs out or its second lapses, never longer.
    const meanwhile = (await tenant.events([distinct(10)])).status;
    expect([202, 401]).toContain(meanwhile);
    expect((await tenantOn(apiB, tenant.key, distinct(11))).status).toBe(401);
    clock.now += 1001;
    const after = await tenant.events([distinct(12)]);
    expect(after.status).toBe(401);
    expect(after.json.error).toMatch(/revoked/);
  });
});
