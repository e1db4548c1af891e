import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import fc from 'fast-check';
import type { DistinctSketch } from '../../lambda/kernel/distinct-sketch';
import { DynamoAddressLimiter } from '../../lambda/infrastructure/store/reports/dynamo-address-limiter';
import { DynamoReleaseReader } from '../../lambda/infrastructure/store/reports/release-reader';
import { DynamoReleaseStore } from '../../lambda/infrastructure/store/reports/release-writes';
import { sessionCounts } from '../../lambda/infrastructure/store/reports/session-records';
import { limiterKey } from '../../lambda/infrastructure/store/schema';
import { zeroCounters, type SessionCounters } from '../../lambda/ingest/sessions/release-health';
import { carryOf, countsOfRow, statusesReached, userHashOf } from '../../lambda/ingest/sessions/session-carry';
import type { SessionAggregate, SessionUpdate, UpdateStatus } from '../../lambda/ingest/sessions/session-reports';
import { countSessions } from '../../lambda/ingest/tally/count-sessions';
import type { SequencedSessionCount } from '../../lambda/ingest/tally/ports';
import { newFactoryId, tables, testDoc } from '../support/local-api';
import { createTestTable } from '../support/semantics';
import { deliveryArbitrary, playDeliveriesTo, type Delivery } from '../support/stream-deliveries';

/**
 * Release counting from the sessions as sent to what the tally stores (docs/release-health.md#how-it-is-counted),
 * on DynamoDB Local: SDK updates of a few sessions (statuses reached in any order, updates resent, servers'
 * aggregates beside them) carried by the real limiter write of two visitors, each visitor's item's stream records
 * in a shard of its own (as a partition's records are), read back as the tally reads them, and counted by the
 * protocol the issues use (countExactlyOnce) under any deliveries: repeated, cut elsewhere, by two consumers at
 * once. Whatever the deliveries, each status a session reached counts once into its release, and each aggregate
 * row once per request that carried it.
 */
const doc = testDoc();
const NOW = Date.parse('2031-05-01T10:05:00Z');
const WIDE = { limit: 1e6, periodMs: 60_000, burst: 1e5 };
const STATUSES: UpdateStatus[] = ['ok', 'errored', 'crashed', 'abnormal', 'exited', 'unhandled'];

interface RequestSpec {
  visitor: 0 | 1;
  updates: { session: number; init: boolean; status: UpdateStatus; errors: number }[];
  aggregate?: { release: number; exited: number; errored: number; crashed: number; abnormal: number };
  /** The same request sent again (an SDK's retry after no answer): a new write carrying the same updates. */
  resent: boolean;
}

const requestArbitrary: fc.Arbitrary<RequestSpec> = fc.record({
  visitor: fc.constantFrom<0 | 1>(0, 1),
  updates: fc.array(fc.record({ session: fc.nat(5), init: fc.boolean(), status: fc.constantFrom(...STATUSES), errors: fc.nat(2) }), { maxLength: 3 }),
  aggregate: fc.option(fc.record({ release: fc.nat(1), exited: fc.nat(3), errored: fc.nat(2), crashed: fc.nat(2), abnormal: fc.nat(1) }), {
    nil: undefined,
    freq: 3,
  }),
  resent: fc.boolean(),
});

/** Session i of a visitor: its id, its release (two releases in all) and its user. */
const sessionOf = (visitor: number, i: number) => ({ sid: `sid-${visitor}-${i}`, release: `web@${i % 2}`, did: `user${(visitor + i) % 4}` });

const updateOf = (visitor: number, update: RequestSpec['updates'][number]): SessionUpdate => {
  const { sid, release, did } = sessionOf(visitor, update.session);
  return { sid, did, init: update.init, status: update.status, errors: update.errors, startedMs: NOW, release, environment: 'production' };
};

const aggregateOf = (row: NonNullable<RequestSpec['aggregate']>): SessionAggregate => ({
  startedMs: NOW,
  exited: row.exited,
  errored: row.errored,
  crashed: row.crashed,
  abnormal: row.abnormal,
  release: `web@${row.release}`,
  environment: 'production',
});

/** A stream record of one write to the limiter item: its images as read just before and after the write. */
function streamRecord(pk: string, before: Record<string, unknown> | undefined, after: Record<string, unknown>, seq: number): DynamoDBRecord {
  const image = (item: Record<string, unknown>) => marshall(item, { removeUndefinedValues: true }) as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'];
  return {
    eventName: before ? 'MODIFY' : 'INSERT',
    dynamodb: { Keys: { pk: { S: pk } }, SequenceNumber: String(seq), NewImage: image(after), ...(before ? { OldImage: image(before) } : {}) },
  };
}

/**
 * The visitors' limiter items live in a table of this test's own, with no stream: in the reports table the run's
 * tally would count their sessions too, from the real stream. The records here are the only ones counted.
 */
let limiterTable: string;
beforeAll(async () => {
  limiterTable = await createTestTable('release-sessions');
});

const read = async (pk: string) => (await doc.send(new GetCommand({ TableName: limiterTable, Key: { pk }, ConsistentRead: true }))).Item;

/**
 * The requests written as the ingest writes them (carryOf, then the visitor's limiter write), one at a time; answers
 * each visitor's records as the tally reads them (their counts grouped per record, in stream order) and what the
 * counters must come to.
 */
async function written(factoryId: string, specs: RequestSpec[]) {
  const limiter = new DynamoAddressLimiter(doc, limiterTable, { requests: WIDE, featureRequests: WIDE });
  const shards: SequencedSessionCount[][][] = [[], []];
  const reached = new Map<string, Set<string>>();
  const expected = new Map<string, SessionCounters>();
  const add = (release: string, status: keyof SessionCounters, n: number) => {
    const counters = expected.get(release) ?? zeroCounters();
    counters[status] += n;
    expected.set(release, counters);
  };
  let seq = 1000;
  for (const spec of specs) {
    const updates = spec.updates.map((update) => updateOf(spec.visitor, update));
    const aggregates = spec.aggregate ? [aggregateOf(spec.aggregate)] : [];
    for (let send = 0; send < (spec.resent ? 2 : 1); send += 1) {
      const carry = carryOf({ updates, aggregates, discarded: [], invalid: 0 }, factoryId, NOW);
      if (!carry) continue;
      const subject = { keyId: `key_${factoryId}`, addressHash: `visitor${spec.visitor}` };
      const pk = limiterKey(subject.keyId, subject.addressHash);
      const before = await read(pk);
      expect(await limiter.admit(subject, ['requests'], NOW, carry)).toEqual({ admitted: true });
      const record = streamRecord(pk, before, (await read(pk)) as Record<string, unknown>, (seq += 1));
      (shards[spec.visitor] as SequencedSessionCount[][]).push(sessionCounts([record]));
      for (const update of updates)
        for (const status of statusesReached(update)) {
          const seen = reached.get(update.release) ?? new Set();
          if (!seen.has(`${update.sid} ${status}`)) add(update.release, status, 1);
          reached.set(update.release, seen.add(`${update.sid} ${status}`));
        }
      for (const row of aggregates) for (const count of countsOfRow({ ...row, hour: 0 })) add(row.release, count.status, count.count);
    }
  }
  return { shards, expected };
}

/** The deliveries played over the shards, each to its consumer's release store. */
const deliver = (stores: DynamoReleaseStore[], shards: SequencedSessionCount[][][], deliveries: Delivery[]): Promise<void> =>
  playDeliveriesTo(shards, deliveries, (consumer, shardKey, records) => countSessions(stores[consumer] as DynamoReleaseStore, shardKey, records.flat()));

test('each status a session reached counts once into its release, and each aggregate once per request, whatever the updates resent and the deliveries repeated, cut or raced over two shards', async () => {
  const reader = new DynamoReleaseReader(doc, tables.reports);
  await fc.assert(
    fc.asyncProperty(
      fc.array(requestArbitrary, { minLength: 1, maxLength: 10 }),
      fc.array(deliveryArbitrary(16, 6), { minLength: 1, maxLength: 8 }),
      async (specs, deliveries) => {
        const factoryId = newFactoryId('relsess');
        const { shards, expected } = await written(factoryId, specs);
        const stores = [new DynamoReleaseStore(doc, tables.reports), new DynamoReleaseStore(doc, tables.reports)];
        await deliver(stores, shards, deliveries);
        // Then each shard whole, once, as Lambda gets there in the end.
        await Promise.all(shards.map((shard, s) => countSessions(stores[1] as DynamoReleaseStore, `shard${s}`, shard.flat())));
        const { releases } = await reader.listReleases(factoryId, { limit: 10 });
        const counted = new Map(releases.map((release) => [release.release, release.counters]));
        expect(counted).toEqual(new Map([...expected].filter(([, counters]) => Object.values(counters).some((n) => n > 0))));
      },
    ),
    { numRuns: 8 },
  );
}, 120_000);

test("a session's users count once per release however many of its updates name them", async () => {
  const factoryId = newFactoryId('relsess');
  const resent: RequestSpec = { visitor: 0, updates: [{ session: 0, init: true, status: 'ok', errors: 0 }], resent: true };
  const crashed: RequestSpec = { visitor: 1, updates: [{ session: 0, init: false, status: 'crashed', errors: 1 }], resent: true };
  const { shards } = await written(factoryId, [resent, crashed, resent]);
  const store = new DynamoReleaseStore(doc, tables.reports);
  for (let round = 0; round < 2; round += 1) await Promise.all(shards.map((shard, s) => countSessions(store, `shard${s}`, shard.flat())));
  const [release] = (await new DynamoReleaseReader(doc, tables.reports).listReleases(factoryId, { limit: 10 })).releases;
  expect(release?.counters).toMatchObject({ started: 1, errored: 1, crashed: 1 });
  const hashes = (sketch: DistinctSketch | undefined) => (sketch?.kind === 'exact' ? [...sketch.hashes].sort() : []);
  // Visitor 0's session 0 is user0; visitor 1's session 0 is user1: two users, one of them crashed.
  expect(hashes(release?.users)).toEqual([userHashOf(factoryId, 'user0'), userHashOf(factoryId, 'user1')].sort());
  expect(hashes(release?.crashedUsers)).toEqual([userHashOf(factoryId, 'user1')]);
});
