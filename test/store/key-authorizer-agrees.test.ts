import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { hashSecret } from '../../lambda/kernel/api-key';
import { decideRate, intervalUs, perMinutePolicy, toMicroseconds, type RateState } from '../../lambda/kernel/rate-limit';
import { DynamoKeyAuthorizer } from '../../lambda/infrastructure/store/keys/dynamo-key-authorizer';
import { KeyAdmin } from '../../lambda/infrastructure/store/keys/key-admin';
import { boundOf, mostInAnySpan, refusalOwed } from '../support/rate-model';
import { newFactoryId, tables, testDoc } from '../support/local-api';

/**
 * The DynamoDB authorizer writes GCRA (lambda/kernel/rate-limit.ts) as
 * conditional updates, guessing the key's state from what its container last
 * saw. Several containers on one table must together decide exactly what the
 * pure rule decides, and keep its promise. Times are given, never read from
 * the clock.
 */
const doc = testDoc();
const admin = new KeyAdmin(doc, tables.keys);
/** Some instant, 20 s into a minute (ms since the epoch). */
const T0 = Date.UTC(2026, 10, 25, 12, 0, 20);

async function newKey(rateLimit: number) {
  const { key } = await admin.create({ factoryId: newFactoryId('gcra'), type: 'secret', rateLimit });
  return hashSecret(key);
}

/** Groups of simultaneous requests: how many, when (ms after the previous group), and on which container each lands. */
const scenarioArb = fc.record({
  limit: fc.constantFrom(1, 3, 7, 10, 25, 100, 1_000_000),
  groups: fc.array(
    fc.record({
      afterMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3_000 }), fc.integer({ min: 3_000, max: 70_000 })),
      containers: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 6 }),
    }),
    { minLength: 1, maxLength: 8 },
  ),
});

test('three containers on one table admit, group by group, exactly what the pure rule admits, and keep its bound', async () => {
  await fc.assert(
    fc.asyncProperty(scenarioArb, async ({ limit, groups }) => {
      const keyHash = await newKey(limit);
      const containers = [0, 1, 2].map(() => new DynamoKeyAuthorizer(doc, tables.keys));
      const policy = perMinutePolicy(limit);
      let state: RateState = {};
      let at = T0;
      const admitted: number[] = [];
      for (const group of groups) {
        at += group.afterMs;
        const now = at;
        // The group's requests race each other; groups follow one another.
        const decisions = await Promise.all(group.containers.map((c) => (containers[c] as DynamoKeyAuthorizer).authorize(keyHash, now)));
        let expected = 0;
        for (let i = 0; i < group.containers.length; i += 1) {
          const decision = decideRate(state, toMicroseconds(now), policy);
          if (decision.admitted) {
            state = { tatUs: decision.tatUs };
            expected += 1;
          }
        }
        const allowed = decisions.filter((d) => d.outcome === 'allowed').length;
        expect(allowed).toBe(expected);
        expect(decisions.filter((d) => d.outcome !== 'allowed' && d.outcome !== 'throttled')).toEqual([]);
        for (let i = 0; i < allowed; i += 1) admitted.push(toMicroseconds(now));
        if (allowed < decisions.length) expect(refusalOwed(admitted, toMicroseconds(now), limit)).toBe(true);
      }
      expect(mostInAnySpan(admitted)).toBeLessThanOrEqual(boundOf(limit));
    }),
    { numRuns: 25 },
  );
});

test('every answer says where the key stands: the limit, what remains now, and when more comes', async () => {
  const keyHash = await newKey(100); // T = 600 ms, a burst of 10
  const container = new DynamoKeyAuthorizer(doc, tables.keys);
  const first = await container.authorize(keyHash, T0);
  expect(first).toMatchObject({ outcome: 'allowed', rate: { limit: 100, remaining: 10, windowSeconds: 1 } });
  for (let i = 0; i < 10; i += 1) await container.authorize(keyHash, T0);
  expect(await container.authorize(keyHash, T0)).toEqual({
    outcome: 'throttled',
    retryAfterSeconds: 1,
    rate: { limit: 100, remaining: 0, windowSeconds: 1 },
  });
  // 3 s later another container, knowing nothing of the key, finds 5 requests' worth freed and takes one.
  expect(await new DynamoKeyAuthorizer(doc, tables.keys).authorize(keyHash, T0 + 3_000)).toMatchObject({
    outcome: 'allowed',
    rate: { limit: 100, remaining: 4, windowSeconds: 1 },
  });
});

test('a key issued before the limiter stored its step is admitted and gets the step written, so later containers need no second call', async () => {
  const keyHash = hashSecret(`dfsk_${'L'.repeat(43)}${Date.now().toString(36)}`);
  const factoryId = newFactoryId('legacy');
  // As the fixed-window limiter left keys: no rlStep, its own counters.
  await doc.send(
    new PutCommand({
      TableName: tables.keys,
      Item: {
        keyHash,
        keyId: 'key_legacy0000000',
        factoryId,
        keyType: 'secret',
        status: 'active',
        rateLimit: 60,
        createdAt: '2026-01-01T00:00:00.000Z',
        hint: 'LLLL',
        rlWindow: 123,
        rlCount: 7,
      },
    }),
  );
  expect(await new DynamoKeyAuthorizer(doc, tables.keys).authorize(keyHash, T0)).toMatchObject({ outcome: 'allowed', factoryId });
  const item = (await doc.send(new GetCommand({ TableName: tables.keys, Key: { keyHash }, ConsistentRead: true }))).Item;
  expect(item).toMatchObject({ rlStep: intervalUs(perMinutePolicy(60)), rlTat: toMicroseconds(T0) + intervalUs(perMinutePolicy(60)) });
});

test('a revoked key is refused on its very next request, in a container that has just admitted it', async () => {
  const { key, keyId } = await admin.create({ factoryId: newFactoryId('gcra'), type: 'secret', rateLimit: 1000 });
  const container = new DynamoKeyAuthorizer(doc, tables.keys);
  expect(await container.authorize(hashSecret(key), T0)).toMatchObject({ outcome: 'allowed' });
  await admin.revoke(keyId);
  expect(await container.authorize(hashSecret(key), T0 + 1)).toEqual({ outcome: 'revoked' });
});
