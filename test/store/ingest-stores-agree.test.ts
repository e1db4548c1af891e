import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { hashSecret } from '../../lambda/domain/api-key';
import { DEFAULT_ADDRESS_LIMITS } from '../../lambda/ingest/limits';
import type { AddressLimitName, StoredEvent } from '../../lambda/ingest/ports';
import { MemoryAddressLimiter } from '../../lambda/memory/memory-address-limiter';
import { MemoryIngestKeys } from '../../lambda/memory/memory-ingest-keys';
import { MemoryReportStore } from '../../lambda/memory/memory-report-store';
import { DynamoAddressLimiter } from '../../lambda/store/dynamo-address-limiter';
import { DynamoIngestKeys } from '../../lambda/store/dynamo-ingest-keys';
import { DynamoReportStore } from '../../lambda/store/dynamo-report-store';
import { KeyAdmin } from '../../lambda/store/key-admin';
import { newFactoryId, tables, testDoc } from '../support/local-api';

/**
 * The DynamoDB adapters of the ingest API write the rules with conditional
 * updates; the in-memory adapters state them plainly. Any sequence of calls
 * must get the same answers from both.
 */
const doc = testDoc();
const T0 = Date.parse('2031-01-01T12:00:00Z');

test('the per-address limiter: DynamoDB and memory agree on every sequence of arrivals, across two containers', async () => {
  const arrival = fc.record({
    afterMs: fc.constantFrom(0, 0, 0, 200, 1000, 5000, 60_000, 400_000),
    limits: fc.constantFrom<AddressLimitName[]>(['requests'], ['requests', 'featureRequests']),
    container: fc.constantFrom(0, 1),
  });
  await fc.assert(
    fc.asyncProperty(fc.array(arrival, { minLength: 1, maxLength: 25 }), async (arrivals) => {
      // Two containers of the function, each with its own guesses, on one table.
      const dynamo = [0, 1].map(() => new DynamoAddressLimiter(doc, tables.reports, DEFAULT_ADDRESS_LIMITS));
      const memory = new MemoryAddressLimiter(DEFAULT_ADDRESS_LIMITS);
      const subject = { keyId: `key_${randomUUID().slice(0, 8)}`, addressHash: randomUUID().replace(/-/g, '') };
      let now = T0;
      for (const { afterMs, limits, container } of arrivals) {
        now += afterMs;
        const got = await dynamo[container]!.admit(subject, limits, now);
        expect(got).toEqual(await memory.admit(subject, limits, now));
      }
    }),
    { numRuns: 20 },
  );
});

test('the limiter item expires only after every TAT it holds, and carries no address', async () => {
  const limiter = new DynamoAddressLimiter(doc, tables.reports, DEFAULT_ADDRESS_LIMITS);
  const subject = { keyId: 'key_expiry', addressHash: randomUUID().replace(/-/g, '') };
  await limiter.admit(subject, ['requests', 'featureRequests'], T0);
  const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
  const item = (await doc.send(new GetCommand({ TableName: tables.reports, Key: { pk: `limit#key_expiry#${subject.addressHash}` }, ConsistentRead: true }))).Item!;
  expect(item.expiresAt * 1e6).toBeGreaterThanOrEqual(Math.max(item.rqTat, item.frTat));
  expect(Object.keys(item).sort()).toEqual(['expiresAt', 'frTat', 'lastRequest', 'pk', 'rqTat']);
});

test('the report store: DynamoDB and memory agree on stored, duplicate and a retried write of our own', async () => {
  const dynamo = new DynamoReportStore(doc, tables.reports);
  const memory = new MemoryReportStore();
  const factoryId = newFactoryId('agree');
  const base: StoredEvent = {
    factoryId,
    keyId: 'key_x',
    origin: 'https://a.com',
    receivedAt: '2031-01-01T12:00:00.000Z',
    expiresAt: 1_950_000_000,
    writeToken: 'w1',
    eventId: randomUUID(),
    type: 'error',
    message: 'first',
  };
  const writes: StoredEvent[] = [base, { ...base, writeToken: 'w2', message: 'second' }, { ...base }, { ...base, eventId: randomUUID(), writeToken: 'w3' }];
  for (const write of writes) expect(await dynamo.putEvent(write)).toBe(await memory.putEvent(write));
  const request = { ...base, id: 'fr_0000000000000001', requestId: randomUUID(), title: 'Dark mode', createdAt: base.receivedAt };
  for (const write of [request, { ...request, title: 'Other', writeToken: 'w9' }, request]) {
    expect(await dynamo.putFeatureRequest(write)).toEqual(await memory.putFeatureRequest(write));
  }
});

test('the ingest key calls: DynamoDB and memory agree on allowed, unknown, revoked and throttled keys, and on exposure', async () => {
  const admin = new KeyAdmin(doc, tables.keys);
  const factoryId = newFactoryId('agree');
  const dynamo = new DynamoIngestKeys(doc, tables.keys);
  const memory = new MemoryIngestKeys();
  const publishable = await admin.create({ factoryId, type: 'publishable', origins: ['https://a.com'], rateLimit: 2 });
  const revoked = await admin.create({ factoryId, type: 'publishable', origins: ['https://a.com'] });
  const secret = await admin.create({ factoryId, type: 'secret' });
  await admin.revoke(revoked.keyId);
  memory.issue(hashSecret(publishable.key), { type: 'publishable', factoryId, keyId: publishable.keyId, rateLimit: 2, origins: ['https://a.com'] });
  memory.issue(hashSecret(revoked.key), { type: 'publishable', factoryId, keyId: revoked.keyId, rateLimit: 600, origins: ['https://a.com'] });
  memory.revoke(hashSecret(revoked.key));
  memory.issue(hashSecret(secret.key), { type: 'secret', factoryId, keyId: secret.keyId, rateLimit: 30_000 });
  const keys = [publishable.key, publishable.key, revoked.key, secret.key, `dfpk_${'n'.repeat(43)}`];
  for (const [i, key] of keys.entries()) {
    expect([i, await dynamo.authorize(hashSecret(key), T0)]).toEqual([i, await memory.authorize(hashSecret(key), T0)]);
  }
  for (const key of [secret.key, secret.key, publishable.key, `dfsk_${'n'.repeat(43)}`]) {
    expect(await dynamo.markExposed(hashSecret(key), T0)).toEqual(await memory.markExposed(hashSecret(key), T0));
  }
  expect(dynamo.knownKey(hashSecret(publishable.key))).toEqual({ factoryId, keyId: publishable.keyId, origins: ['https://a.com'] });
  expect(dynamo.knownKey(hashSecret(revoked.key))).toBeUndefined();
});
