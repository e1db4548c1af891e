import { ingestTenant, randomClient, SITE, validEvent } from '../support/ingest';
import { realIngestDependencies, startLocalHost, type LocalApi } from '../support/local-api';

/**
 * The per-address limit as the deployed function wires it (ingestContainerDependencies: the visitor counted in the
 * container, its limiter item written only near the limit: docs/capacity.md#the-visitors-limit-counted-in-the-container),
 * through HTTP, with a clock the test holds. One container answers exactly as the rule: a burst of 7 from one
 * address, then 429 with Retry-After, concurrent requests included.
 */
const clock = { now: Math.floor(Date.now() / 60_000) * 60_000 + 20_000 };
let api: LocalApi;
beforeAll(async () => {
  api = await startLocalHost({ ...realIngestDependencies({ countVisitorsInContainer: true }), now: () => clock.now });
});
afterAll(() => api.close());

const eventFrom = (key: string, from: string) =>
  api.request('POST', '/ingest/v1/events', {
    headers: { Origin: SITE, 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
    body: { events: [validEvent()] },
    localAddress: from,
  });

test('a burst of 7 from one address is accepted, the 8th is 429 with Retry-After 1, a second later one more passes, another address still passes', async () => {
  const tenant = await ingestTenant(api);
  const from = randomClient();
  const statuses = [];
  for (let i = 0; i < 7; i += 1) statuses.push((await eventFrom(tenant.key, from)).status);
  expect(statuses).toEqual(Array(7).fill(202));
  const limited = await eventFrom(tenant.key, from);
  expect(limited.status).toBe(429);
  expect(limited.headers['retry-after']).toBe('1');
  expect(limited.json.error).toMatch(/Too many requests from your address with this key/);
  expect((await eventFrom(tenant.key, randomClient())).status).toBe(202);
  const saved = clock.now;
  clock.now = saved + 1000;
  expect((await eventFrom(tenant.key, from)).status).toBe(202);
  expect((await eventFrom(tenant.key, from)).status).toBe(429);
  clock.now = saved;
});

test('20 concurrent requests from one address: exactly 7 accepted', async () => {
  const tenant = await ingestTenant(api);
  const from = randomClient();
  const answers = await Promise.all(Array.from({ length: 20 }, () => eventFrom(tenant.key, from)));
  expect(answers.filter((res) => res.status === 202)).toHaveLength(7);
  expect(answers.filter((res) => res.status === 429)).toHaveLength(13);
});
