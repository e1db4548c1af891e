import { createDynamoClient, DEFAULT_DYNAMO_CONFIG, documentClientOf } from '../../lambda/infrastructure/store/dynamo-client';
import { ingestDynamoDependencies } from '../../lambda/ingest/api/ingest-wiring';
import { FaultInjector, stopFaultServers } from '../support/faults';
import { corsOf, ingestTenant, SITE, storedReports, validEvent } from '../support/ingest';
import { endpoint, issueKey, newFactoryId, startLocalHost, tables, type LocalApi } from '../support/local-api';

/**
 * Storage failing under the ingest API: every failure is a 503 the page can
 * read (CORS headers, Retry-After), never a 500, and sending the same
 * request again converges: each event stored once, counted as accepted once.
 */
const config = { ...DEFAULT_DYNAMO_CONFIG, endpoint: '' };
let api: LocalApi;
let faults: FaultInjector;
let close: () => void;
beforeAll(async () => {
  const client = createDynamoClient({ ...config, endpoint: endpoint() });
  faults = new FaultInjector(client, config.requestTimeoutMs);
  api = await startLocalHost(ingestDynamoDependencies(documentClientOf(client), tables));
  close = () => client.destroy();
});
afterEach(() => faults.clear());
afterAll(async () => {
  await api.close();
  close();
  await stopFaultServers();
});

const expect503 = (res: Awaited<ReturnType<LocalApi['request']>>) => {
  expect(res.status).toBe(503);
  expect(res.headers['retry-after']).toBe('1');
  expect(res.json).toEqual({ error: expect.stringMatching(/report store is temporarily unavailable: retry the same request/) });
  expect(corsOf(res)['access-control-allow-origin']).toBe(SITE);
};

test('a report write that fails is 503; the same request again stores every event once', async () => {
  const tenant = await ingestTenant(api);
  const events = [validEvent(), validEvent()];
  const injected = faults.inject({ call: 'report-put', when: 'before', fault: 'internal-error' });
  expect503(await tenant.events(events));
  injected.remove();
  const retry = await tenant.events(events);
  expect(retry.status).toBe(202);
  expect(retry.json.accepted + retry.json.duplicates).toBe(2);
  expect((await storedReports(tenant.factoryId)).map((e) => e.eventId).sort()).toEqual(events.map((e) => e.eventId).sort());
});

test('a write that landed but whose answer was lost (the SDK retries it) counts as accepted, not as a duplicate', async () => {
  const tenant = await ingestTenant(api);
  const injected = faults.inject({ call: 'report-put', when: 'after', fault: 'internal-error', times: 1 });
  const res = await tenant.events([validEvent()]);
  expect(injected.hits).toBe(1);
  expect(res.json).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
  expect(await storedReports(tenant.factoryId)).toHaveLength(1);
});

test('the per-address limiter out of reach is 503, never an unlimited pass', async () => {
  const tenant = await ingestTenant(api);
  faults.inject({ call: 'address-limit', when: 'before', fault: 'timeout' });
  expect503(await tenant.events([validEvent()]));
  expect(await storedReports(tenant.factoryId)).toEqual([]);
});

test("a write throttled past the SDK's retries is 429 with Retry-After the page can read, never a 5xx; sent again, every event is stored once", async () => {
  const tenant = await ingestTenant(api);
  const events = [validEvent(), validEvent()];
  const injected = faults.inject({ call: 'report-put', when: 'before', fault: 'throttling' });
  const throttled = await tenant.events(events);
  expect(throttled.status).toBe(429);
  expect(Number(throttled.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(throttled.json).toEqual({ error: expect.stringMatching(/Too many writes to the same data at once: retry after [12] s/) });
  expect(corsOf(throttled)['access-control-allow-origin']).toBe(SITE);
  injected.remove();
  const retry = await tenant.events(events);
  expect(retry.json.accepted + retry.json.duplicates).toBe(2);
  expect((await storedReports(tenant.factoryId)).map((e) => e.eventId).sort()).toEqual(events.map((e) => e.eventId).sort());
});

test('the key check out of reach is 503, for a secret key too (exactly like an unknown key)', async () => {
  const tenant = await ingestTenant(api);
  const secret = await issueKey(newFactoryId('faults'));
  faults.inject({ call: 'authorize', when: 'before', fault: 'timeout' });
  expect503(await tenant.events([validEvent()]));
  expect503(await tenant.events([validEvent()], { key: secret.key }));
  expect503(await tenant.events([validEvent()], { key: `dfsk_${'u'.repeat(43)}` }));
});
