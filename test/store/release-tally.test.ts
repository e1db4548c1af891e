import fc from 'fast-check';
import { DynamoReleaseReader } from '../../lambda/infrastructure/store/reports/release-reader';
import { DynamoReleaseStore } from '../../lambda/infrastructure/store/reports/release-writes';
import { releaseRefId, zeroCounters, type SessionCounters } from '../../lambda/ingest/sessions/release-health';
import type { ReachedStatus } from '../../lambda/ingest/sessions/session-carry';
import { padSequence } from '../../lambda/ingest/tally/exactly-once';
import { countSessions } from '../../lambda/ingest/tally/count-sessions';
import type { SequencedSessionCount } from '../../lambda/ingest/tally/ports';
import { newFactoryId, tables, testDoc } from '../support/local-api';
import { deliveryArbitrary, playDeliveriesTo, type Delivery } from '../support/stream-deliveries';

/**
 * Release health counted exactly once (docs/release-health.md#how-it-is-counted) on DynamoDB Local, with the
 * stream's deliveries played by the test: a shard's records handed over in order, some again (Lambda retries a
 * failed batch), cut elsewhere the second time, and by two consumers at once, over two shards. Whatever the
 * deliveries, each release's counters, each hour's and the factory's hour are the exact sums of what the records
 * carry, and the distinct users are exact (fewer than 100).
 */
const doc = testDoc();
const HOUR = 499_000;
const STATUSES: ReachedStatus[] = ['started', 'errored', 'crashed', 'abnormal', 'exited'];

interface RecordSpec {
  release: number;
  hour: number;
  user: number;
  statuses: ReachedStatus[];
}

const recordArbitrary = fc.record({
  release: fc.nat(1),
  hour: fc.nat(1),
  user: fc.nat(6),
  statuses: fc.subarray(STATUSES, { minLength: 1 }),
});

/** One record's counts (a record may add several statuses), all with the record's sequence number. */
const countsOf = (factoryId: string, spec: RecordSpec, seq: string): SequencedSessionCount[] =>
  spec.statuses.map((status) => ({
    factoryId,
    release: `web@${spec.release}`,
    environment: 'production',
    hour: HOUR + spec.hour,
    user: `user000${spec.user}`,
    status,
    count: 1,
    seq,
  }));

/** The deliveries played over the shards, each to its consumer's release store. */
const deliver = (stores: DynamoReleaseStore[], shards: SequencedSessionCount[][][], deliveries: Delivery[]): Promise<void> =>
  playDeliveriesTo(shards, deliveries, (consumer, shardKey, records) => countSessions(stores[consumer] as DynamoReleaseStore, shardKey, records.flat()));

test("every status a record carries is counted once into its release, its hour and its factory's hour, whatever the deliveries", async () => {
  const reader = new DynamoReleaseReader(doc, tables.reports);
  await fc.assert(
    fc.asyncProperty(
      fc.array(recordArbitrary, { minLength: 2, maxLength: 24 }),
      fc.array(deliveryArbitrary(24, 8), { minLength: 1, maxLength: 10 }),
      async (specs, deliveries) => {
        const factoryId = newFactoryId('reltally');
        const records = specs.map((spec, i) => countsOf(factoryId, spec, padSequence(String(5000 + i))));
        const shards = [0, 1].map((shard) => records.filter((_, i) => i % 2 === shard));
        const stores = [new DynamoReleaseStore(doc, tables.reports), new DynamoReleaseStore(doc, tables.reports)];
        await deliver(stores, shards, deliveries);
        // Then each shard whole, once, as Lambda gets there in the end.
        await Promise.all(shards.map((shard, s) => countSessions(stores[0] as DynamoReleaseStore, `shard${s}`, shard.flat())));

        const expected = new Map<string, { counters: SessionCounters; hours: Map<number, SessionCounters>; users: Set<string>; crashed: Set<string> }>();
        for (const count of records.flat()) {
          const entry = expected.get(count.release) ?? { counters: zeroCounters(), hours: new Map(), users: new Set(), crashed: new Set() };
          entry.counters[count.status] += 1;
          const hour = entry.hours.get(count.hour) ?? zeroCounters();
          hour[count.status] += 1;
          entry.hours.set(count.hour, hour);
          entry.users.add(count.user as string);
          if (count.status === 'crashed') entry.crashed.add(count.user as string);
          expected.set(count.release, entry);
        }
        const { releases } = await reader.listReleases(factoryId, { limit: 10 });
        expect(releases.map((r) => r.release).sort()).toEqual([...expected.keys()].sort());
        for (const record of releases) {
          const want = expected.get(record.release);
          expect(record.counters).toEqual(want?.counters);
          expect(record.users?.kind === 'exact' ? record.users.hashes.length : -1).toBe(want?.users.size);
          expect(record.crashedUsers?.kind === 'exact' ? record.crashedUsers.hashes.length : 0).toBe(want?.crashed.size);
          const hours = await reader.releaseHours(factoryId, [record], [HOUR, HOUR + 1]);
          expect(hours.get(releaseRefId(record))).toEqual(want?.hours);
        }
        const factoryHours = await reader.factoryHours(factoryId, [HOUR, HOUR + 1]);
        const started = (hour: number) => records.flat().filter((c) => c.status === 'started' && c.hour === hour).length;
        expect(new Map([...factoryHours].filter(([, n]) => n > 0))).toEqual(
          new Map([HOUR, HOUR + 1].filter((h) => started(h) > 0).map((h) => [h, started(h)])),
        );
      },
    ),
    { numRuns: 10 },
  );
}, 120_000);
