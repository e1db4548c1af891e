import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { withGrouping } from '../../lambda/ingest/receive-events';
import type { StoredEvent } from '../../lambda/ingest/issues/stored-event';
import { MemoryReportStore } from '../../lambda/infrastructure/memory/memory-report-store';
import { JsonLogger } from '../../lambda/infrastructure/observability/logger';
import { DynamoIssueStore } from '../../lambda/infrastructure/store/reports/dynamo-issue-store';
import { eventItemOf } from '../../lambda/infrastructure/store/reports/event-items';
import { insertedEvents } from '../../lambda/infrastructure/store/reports/stream-records';
import { DynamoTallyStore } from '../../lambda/infrastructure/store/reports/tally-writes';
import { padSequence } from '../../lambda/ingest/tally/exactly-once';
import type { TallyStore } from '../../lambda/ingest/tally/ports';
import { createTallyHandler, shardKeyOf, type TallyEvent } from '../../lambda/ingest/tally/tally';
import { newFactoryId, tables, testDoc } from '../support/local-api';

/**
 * The tally during a canary (docs/deploying.md#stream-and-queue-consumers-during-a-canary):
 * Lambda routes each invocation, a batch of one shard, to the old or the
 * new version by the alias' weights, and a failed batch is retried on
 * whichever version the next invocation lands on. Two handlers stand for
 * the two versions, each with its own DynamoDB client (its own container);
 * batches of two shards alternate between them, some fail after their
 * writes were applied (the answer lost: the worst case for a retry) and are
 * retried on either version. Every issue counts each of its events once, as
 * the in-memory store does: the marks one version leaves mean the same to
 * the other.
 */
const T0 = Date.parse('2031-05-01T12:00:00Z');
const SHARDS = ['shardId-00000001700000000000-0000aaaa', 'shardId-00000001700000000000-0000bbbb'];
const quiet = new JsonLogger({ service: 'contacts-tally', level: 'SILENT' });

function events(factoryId: string, groups: number[]): StoredEvent[] {
  return groups.map((group, i) =>
    withGrouping({
      factoryId,
      keyId: 'key_canary',
      origin: 'https://a.com',
      receivedAt: new Date(T0 + i * 500).toISOString(),
      expiresAt: Math.floor(T0 / 1000) + 86_400,
      writeToken: `w${i}`,
      eventId: randomUUID(),
      type: 'error',
      message: `boom ${group}`,
      fingerprint: [`group ${group}`],
    }),
  );
}

/** A stream record of an inserted event, as Lambda hands it to the tally. */
const recordOf = (event: StoredEvent, sequence: number): DynamoDBRecord => ({
  eventID: `r${sequence}`,
  eventName: 'INSERT',
  eventSource: 'aws:dynamodb',
  dynamodb: {
    Keys: { pk: { S: `event#${event.factoryId}#${event.eventId}` } },
    // The stream's image and the SDK's marshalled item are the same JSON; only their declared types differ.
    NewImage: marshall(eventItemOf(event), { removeUndefinedValues: true }) as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'],
    SequenceNumber: String(49_600_000 + sequence),
  },
});

/**
 * The store of a version whose next issue write for an armed shard is
 * applied and its answer then lost: that shard's batch fails after doing its work.
 */
class LosesAnswerOnce implements TallyStore {
  private readonly armed = new Set<string>();
  constructor(private readonly store: TallyStore) {}
  arm(shardId: string): void {
    this.armed.add(shardKeyOf(shardId));
  }
  writePages: TallyStore['writePages'] = (...args) => this.store.writePages(...args);
  addFiltered: TallyStore['addFiltered'] = (...args) => this.store.addFiltered(...args);
  addToPerson: TallyStore['addToPerson'] = (...args) => this.store.addToPerson(...args);
  reportersNow: TallyStore['reportersNow'] = (...args) => this.store.reportersNow(...args);
  withdrawPerson: TallyStore['withdrawPerson'] = (...args) => this.store.withdrawPerson(...args);
  addSetAside: TallyStore['addSetAside'] = (...args) => this.store.addSetAside(...args);
  issuesOfHashes: TallyStore['issuesOfHashes'] = (...args) => this.store.issuesOfHashes(...args);
  tieHashes: TallyStore['tieHashes'] = (...args) => this.store.tieHashes(...args);
  addToIssue: TallyStore['addToIssue'] = async (shardKey, ...rest) => {
    await this.store.addToIssue(shardKey, ...rest);
    if (this.armed.delete(shardKey)) throw Object.assign(new Error('the connection was reset after the write'), { name: 'TimeoutError' });
  };
}

/** One invocation of the plan: a batch of `size` records to `version`; when it `fails`, retried on `retryOn`. */
const batchPlan = fc.record({ size: fc.integer({ min: 1, max: 5 }), version: fc.constantFrom(0, 1), fails: fc.boolean(), retryOn: fc.constantFrom(0, 1) });

test('the pinned forms of the marks: a shard key and a sequence number read the same in every version (a change would count retried batches again)', () => {
  expect(shardKeyOf('shardId-00000001700000000000-0000abcd')).toBe('68ce0200f57b');
  expect(padSequence('49600000000000000000001')).toBe('0000000000000000049600000000000000000001');
});

test('batches of two shards alternating between the old and the new version, some failing after their writes and retried on either: every event counted once', async () => {
  const issues = new DynamoIssueStore(testDoc(), tables.reports);
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.constantFrom(0, 1, 2), { minLength: 6, maxLength: 24 }),
      fc.array(batchPlan, { minLength: 1, maxLength: 8 }),
      async (groups, plan) => {
        const factoryId = newFactoryId('canary');
        const stored = events(factoryId, groups);
        const stores = [
          new LosesAnswerOnce(new DynamoTallyStore(testDoc(), tables.reports)),
          new LosesAnswerOnce(new DynamoTallyStore(testDoc(), tables.reports)),
        ];
        const versions = stores.map((store) => createTallyHandler({ store, insertedEvents }, quiet));
        // Even events in one shard, odd in the other, each shard in its own order.
        const shards = SHARDS.map((_, s) => stored.flatMap((event, i) => (i % 2 === s ? [recordOf(event, i)] : [])));
        const places = [0, 0];
        for (let step = 0; places.some((place, s) => place < shards[s]!.length); step++) {
          // One batch of each shard at a time, side by side: Lambda runs a shard's batches in order, the shards at once.
          await Promise.all(
            shards.map(async (records, s) => {
              if (places[s]! >= records.length) return;
              const { size, version, fails, retryOn } = plan[(step + s) % plan.length]!;
              const batch: TallyEvent = { Records: records.slice(places[s], places[s]! + size), shardId: SHARDS[s] };
              if (fails) {
                stores[version]!.arm(SHARDS[s]!);
                await expect(versions[version]!(batch)).rejects.toThrow('reset after the write');
                await versions[retryOn]!(batch);
              } else {
                await versions[version]!(batch);
              }
              places[s] = places[s]! + size;
            }),
          );
        }
        const memory = new MemoryReportStore();
        await memory.putEvents(stored);
        const nowMs = T0 + 60_000;
        const counts = (list: { issueId: string; count: number }[]) => Object.fromEntries(list.map(({ issueId, count }) => [issueId, count]));
        expect(counts(await issues.listIssues(factoryId, { limit: 10, nowMs }))).toEqual(counts(await memory.listIssues(factoryId, { limit: 10, nowMs })));
      },
    ),
    { numRuns: 8 },
  );
}, 180_000);
