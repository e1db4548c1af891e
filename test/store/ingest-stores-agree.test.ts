import { sentryProjectId } from '../../lambda/kernel/sentry-project';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { hashSecret } from '../../lambda/kernel/api-key';
import { DEFAULT_ADDRESS_LIMITS } from '../../lambda/ingest/limits';
import { issueIdOf } from '../../lambda/ingest/grouping/fingerprint';
import type { IssueStatus } from '../../lambda/ingest/issues/issue';
import type { StoredEvent } from '../../lambda/ingest/issues/stored-event';
import type { AddressLimitName } from '../../lambda/ingest/ports';
import { withGrouping } from '../../lambda/ingest/receive-events';
import { MemoryAddressLimiter } from '../../lambda/infrastructure/memory/memory-address-limiter';
import { MemoryIngestKeys } from '../../lambda/infrastructure/memory/memory-ingest-keys';
import { MemoryReportStore } from '../../lambda/infrastructure/memory/memory-report-store';
import { DynamoAddressLimiter } from '../../lambda/infrastructure/store/reports/dynamo-address-limiter';
import { DynamoIngestKeys } from '../../lambda/infrastructure/store/keys/dynamo-ingest-keys';
import { DynamoIssueStore } from '../../lambda/infrastructure/store/reports/dynamo-issue-store';
import { DynamoReportStore } from '../../lambda/infrastructure/store/reports/dynamo-report-store';
import { KeyAdmin } from '../../lambda/infrastructure/store/keys/key-admin';
import { newFactoryId, tables, testDoc } from '../support/local-api';
import { tallied } from '../support/tally';

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
  const item = (await doc.send(new GetCommand({ TableName: tables.reports, Key: { pk: `limit#key_expiry#${subject.addressHash}` }, ConsistentRead: true })))
    .Item!;
  expect(item.expiresAt * 1e6).toBeGreaterThanOrEqual(Math.max(item.rqTat, item.frTat));
  expect(Object.keys(item).sort()).toEqual(['expiresAt', 'frTat', 'lastRequest', 'pk', 'rqTat']);
});

test('the report store: DynamoDB and memory agree on stored, duplicate and a retried write of our own, and on feature requests', async () => {
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
  for (const write of writes) expect(await dynamo.putEvents([withGrouping(write)])).toEqual(await memory.putEvents([withGrouping(write)]));
  // Two events of one call with one eventId: the second is a duplicate.
  const twice = withGrouping({ ...base, eventId: randomUUID(), writeToken: 'w4' });
  expect(await dynamo.putEvents([twice, { ...twice, writeToken: 'w5' }])).toEqual(await memory.putEvents([twice, { ...twice, writeToken: 'w5' }]));
  const request = { ...base, id: 'fr_0000000000000001', requestId: randomUUID(), title: 'Dark mode', createdAt: base.receivedAt };
  for (const write of [request, { ...request, title: 'Other', writeToken: 'w9' }, request]) {
    expect(await dynamo.putFeatureRequest(write)).toEqual(await memory.putFeatureRequest(write));
  }
});

/** One step of a factory's life: a request of events (some replayed with their first write token), a status change, or time passing. */
const step = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('send' as const),
      events: fc.array(
        fc.record({ id: fc.nat(14), group: fc.constantFrom(0, 1, 2, 3, 'filtered' as const), release: fc.constantFrom(undefined, 'web@1', 'web@2') }),
        { minLength: 1, maxLength: 8 },
      ),
      replayOf: fc.option(fc.nat(30), { nil: undefined }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('status' as const), group: fc.nat(3), status: fc.constantFrom<IssueStatus>('open', 'resolved', 'ignored') }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('wait' as const), seconds: fc.constantFrom(1, 60, 7200) }) },
);

test('issues: DynamoDB (counted by the tally from the stream) and memory agree on every sequence of requests, replays, status changes and expiry', async () => {
  const dynamo = new DynamoReportStore(doc, tables.reports);
  const dynamoIssues = new DynamoIssueStore(doc, tables.reports);
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (steps) => {
      const memory = new MemoryReportStore();
      const factoryId = newFactoryId('issues');
      const ids = Array.from({ length: 15 }, () => randomUUID());
      const sent: StoredEvent[][] = [];
      let now = T0;
      for (const taken of steps) {
        now += 1000;
        if (taken.kind === 'wait') now += taken.seconds * 1000;
        if (taken.kind === 'send') {
          const replay = taken.replayOf === undefined ? undefined : sent[taken.replayOf % Math.max(sent.length, 1)];
          const batch =
            replay ??
            taken.events.map(({ id, group, release }, index) =>
              withGrouping({
                factoryId,
                keyId: 'key_x',
                origin: 'https://a.com',
                receivedAt: new Date(now).toISOString(),
                // An hour of retention: a wait of two hours lets issues expire.
                expiresAt: Math.floor(now / 1000) + 3600,
                writeToken: `${now}#${index}`,
                eventId: ids[id] as string,
                type: 'error',
                ...(group === 'filtered' ? { message: 'Script error.' } : { message: `boom ${index}`, fingerprint: [`group ${group}`] }),
                ...(release === undefined ? {} : { release }),
              }),
            );
          sent.push(batch);
          expect(await dynamo.putEvents(batch)).toEqual(await memory.putEvents(batch));
          await tallied();
        }
        if (taken.kind === 'status') {
          const issueId = issueIdOf(factoryId, ['custom', `group ${taken.group}`]);
          const change = { status: taken.status, at: new Date(now).toISOString(), by: 'op', nowMs: now };
          expect(await dynamoIssues.setIssueStatus(factoryId, issueId, change)).toEqual(await memory.setIssueStatus(factoryId, issueId, change));
        }
        for (const status of [undefined, 'open', 'resolved'] as const) {
          expect(await dynamoIssues.listIssues(factoryId, { status, limit: 10, nowMs: now })).toEqual(
            await memory.listIssues(factoryId, { status, limit: 10, nowMs: now }),
          );
        }
      }
      expect(await dynamoIssues.filteredCounts(factoryId)).toEqual(await memory.filteredCounts(factoryId));
    }),
    { numRuns: 12 },
  );
  // Each request waits for the run's tally (a few hundred milliseconds on a loaded machine).
}, 180_000);

test("the ingest key calls: DynamoDB and memory agree on active, unknown and revoked keys, on the key's limit, and on exposure", async () => {
  const admin = new KeyAdmin(doc, tables.keys);
  const factoryId = newFactoryId('agree');
  // Leases of no life: every request writes, as the in-memory twin counts (leases are held to the limit in test/api/ingest-limits.test.ts).
  const dynamo = new DynamoIngestKeys(doc, tables.keys, 0);
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
    expect([i, await dynamo.authenticate(hashSecret(key), T0)]).toEqual([i, await memory.authenticate(hashSecret(key))]);
  }
  // A limit of 2 a minute (no burst): two requests at once, then one every 30 s.
  const known = { factoryId, keyId: publishable.keyId, origins: ['https://a.com'], rateLimit: 2 };
  for (const at of [T0, T0, T0, T0 + 29_000, T0 + 60_000, T0 + 60_000, T0 + 90_000]) {
    expect([at - T0, await dynamo.admitRequest(known, hashSecret(publishable.key), at)]).toEqual([
      at - T0,
      await memory.admitRequest(known, hashSecret(publishable.key), at),
    ]);
  }
  for (const key of [secret.key, secret.key, publishable.key, `dfsk_${'n'.repeat(43)}`]) {
    expect(await dynamo.markExposed(hashSecret(key), T0)).toEqual(await memory.markExposed(hashSecret(key), T0));
  }
  expect(dynamo.knownKey(hashSecret(publishable.key))).toEqual({
    factoryId,
    keyId: publishable.keyId,
    origins: ['https://a.com'],
    rateLimit: 2,
    sentryProjectId: sentryProjectId(publishable.keyId),
  });
  expect(dynamo.knownKey(hashSecret(revoked.key))).toBeUndefined();
});

test("an issue's events received at one instant: DynamoDB and memory list them in one order (newest first, then by eventId, descending)", async () => {
  const dynamo = new DynamoReportStore(doc, tables.reports);
  const dynamoIssues = new DynamoIssueStore(doc, tables.reports);
  const memory = new MemoryReportStore();
  const factoryId = newFactoryId('ties');
  const at = '2031-01-01T12:00:00.000Z';
  // Stored in ascending id order, so an order that keeps insertion for ties differs from the index's.
  const events = ['1', '2', '3'].map((digit, index) =>
    withGrouping({
      factoryId,
      keyId: 'key_x',
      origin: 'https://a.com',
      receivedAt: at,
      expiresAt: 1_950_000_000,
      writeToken: `w${index}`,
      eventId: `0000000${digit}-0000-4000-8000-000000000000`,
      type: 'error',
      message: 'boom',
      fingerprint: ['one instant'],
    }),
  );
  await dynamo.putEvents(events);
  await memory.putEvents(events);
  await tallied();
  const issueId = events[0]!.issueId as string;
  const ids = (list: { eventId: string }[]) => list.map((event) => event.eventId);
  const fromDynamo = ids(await dynamoIssues.issueEvents(factoryId, issueId, 10, T0));
  expect(fromDynamo).toEqual(events.map((event) => event.eventId).reverse());
  expect(ids(await memory.issueEvents(factoryId, issueId, 10, T0))).toEqual(fromDynamo);
});
