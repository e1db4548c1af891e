import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { DEFAULT_ADDRESS_LIMITS } from '../../lambda/ingest/limits';
import type { AddressLimitName } from '../../lambda/ingest/ports';
import { MemoryAddressLimiter } from '../../lambda/infrastructure/memory/memory-address-limiter';
import { DynamoAddressLimiter } from '../../lambda/infrastructure/store/reports/dynamo-address-limiter';
import { tables, testDoc } from '../support/local-api';

/**
 * The per-address limiter counting a visitor in the container (lambda/kernel/rate-view.ts,
 * docs/capacity.md#the-visitors-limit-counted-in-the-container): no write while the visitor is within its burst,
 * the same decisions as the rule for one container, and at most N times the rule's promise over N containers.
 */
const doc = testDoc();
const T0 = Date.parse('2031-01-01T12:00:00Z');
const { limit, burst } = DEFAULT_ADDRESS_LIMITS.requests; // 60 a minute, B = 6, T = 1 s

/** A container's limiter that counts its writes. */
function container() {
  const counted = { writes: 0 };
  const counting = { send: (command: unknown) => ((counted.writes += 1), doc.send(command as never)) } as unknown as DynamoDBDocumentClient;
  return { limiter: new DynamoAddressLimiter(counting, tables.reports, DEFAULT_ADDRESS_LIMITS, { countInContainer: true }), counted };
}
const newSubject = () => ({ keyId: `key_${randomUUID().slice(0, 8)}`, addressHash: randomUUID().replace(/-/g, '') });

test('a burst on one container: the first B requests write nothing, the (B+1)-th writes them all at once, the next is refused', async () => {
  const { limiter, counted } = container();
  const subject = newSubject();
  const answers = [];
  for (let i = 0; i < burst; i += 1) answers.push(await limiter.admit(subject, ['requests'], T0));
  expect(counted.writes).toBe(0);
  answers.push(await limiter.admit(subject, ['requests'], T0));
  expect(counted.writes).toBe(1);
  expect(answers).toEqual(Array(burst + 1).fill({ admitted: true }));
  const { Item } = await doc.send(
    new GetCommand({ TableName: tables.reports, Key: { pk: `limit#${subject.keyId}#${subject.addressHash}` }, ConsistentRead: true }),
  );
  // Where B + 1 one-by-one writes would have left it.
  expect(Item?.rqTat).toBe(T0 * 1000 + (burst + 1) * 1_000_000);
  expect(await limiter.admit(subject, ['requests'], T0)).toEqual({ admitted: false, limit: 'requests', retryAfterSeconds: 1 });
});

test('20 concurrent requests of one visitor on one container: exactly B + 1 admitted, as the rule admits them', async () => {
  const { limiter } = container();
  const subject = newSubject();
  const answers = await Promise.all(Array.from({ length: 20 }, () => limiter.admit(subject, ['requests'], T0)));
  expect(answers.filter((answer) => answer.admitted)).toHaveLength(burst + 1);
});

test('a visitor at the steady rate on one container is never refused and never written', async () => {
  const { limiter, counted } = container();
  const subject = newSubject();
  for (let i = 0; i < 2 * limit; i += 1) expect(await limiter.admit(subject, ['requests'], T0 + i * 1000)).toEqual({ admitted: true });
  expect(counted.writes).toBe(0);
});

test('a request carrying Sentry sessions writes every time, and its statuses are on the item (the tally counts them from it)', async () => {
  const { limiter, counted } = container();
  const subject = newSubject();
  const carry = { factoryId: 'fac_sessions', slot: 0, elements: ['s1o'], details: {}, aggregates: [], discards: [], dropped: 0 };
  await limiter.admit(subject, ['requests'], T0);
  expect(counted.writes).toBe(0);
  expect(await limiter.admit(subject, ['requests'], T0, carry)).toEqual({ admitted: true });
  expect(await limiter.admit(subject, ['requests'], T0, { ...carry, elements: ['s2o'] })).toEqual({ admitted: true });
  expect(counted.writes).toBe(2);
  const { Item } = await doc.send(
    new GetCommand({ TableName: tables.reports, Key: { pk: `limit#${subject.keyId}#${subject.addressHash}` }, ConsistentRead: true }),
  );
  // The first write carried the request the view had admitted: three requests on the item.
  expect(Item?.rqTat).toBe(T0 * 1000 + 3 * 1_000_000);
  expect([...(Item?.sr0 ?? [])].sort()).toEqual(['s1o', 's2o']);
});

test('feature requests and the hourly limit always write', async () => {
  const { limiter, counted } = container();
  await limiter.admit(newSubject(), ['requests', 'featureRequests'], T0);
  expect(counted.writes).toBe(1);
});

test('one container agrees with the rule (memory) on every sequence of arrivals', async () => {
  const arrival = fc.record({
    afterMs: fc.constantFrom(0, 0, 0, 200, 1000, 5000, 60_000, 400_000),
    limits: fc.constantFrom<AddressLimitName[]>(['requests'], ['requests'], ['requests', 'featureRequests']),
  });
  await fc.assert(
    fc.asyncProperty(fc.array(arrival, { minLength: 1, maxLength: 30 }), async (arrivals) => {
      const { limiter } = container();
      const memory = new MemoryAddressLimiter(DEFAULT_ADDRESS_LIMITS);
      const subject = newSubject();
      let now = T0;
      for (const { afterMs, limits } of arrivals) {
        now += afterMs;
        expect(await limiter.admit(subject, limits, now)).toEqual(await memory.admit(subject, limits, now));
      }
    }),
    { numRuns: 20 },
  );
});

test('a visitor spread over N containers at once is admitted at most N times the burst plus one, and the shared item then refuses it everywhere', async () => {
  const containers = [container(), container(), container()];
  const subject = newSubject();
  const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => containers[i % 3]!.limiter.admit(subject, ['requests'], T0)));
  const admitted = answers.filter((answer) => answer.admitted).length;
  expect(admitted).toBeGreaterThanOrEqual(burst + 1);
  expect(admitted).toBeLessThanOrEqual(containers.length * (burst + 1));
  for (const { limiter } of containers) expect((await limiter.admit(subject, ['requests'], T0)).admitted).toBe(false);
});
