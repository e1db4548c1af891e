import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { withGrouping } from '../../lambda/ingest/receive-events';
import type { StoredEvent } from '../../lambda/ingest/issues/stored-event';
import { MemoryReportStore } from '../../lambda/infrastructure/memory/memory-report-store';
import { DynamoIssueStore } from '../../lambda/infrastructure/store/reports/dynamo-issue-store';
import { DynamoTallyStore } from '../../lambda/infrastructure/store/reports/tally-writes';
import { padSequence } from '../../lambda/ingest/tally/exactly-once';
import { tallyBatch } from '../../lambda/ingest/tally/tally-batch';
import { REPORTS_BY_FEED, REPORTS_BY_ISSUE } from '../../lambda/infrastructure/store/schema';
import { newFactoryId, tables, testDoc } from '../support/local-api';
import { deliveryArbitrary, playDeliveries, twoShards } from '../support/stream-deliveries';

/**
 * The tally's exactly-once promise (docs/report-issues.md#exact-counts) on
 * DynamoDB Local, with the stream's deliveries played by the test: batches
 * of one shard handed over in order, some handed over again (Lambda retries a
 * failed batch), cut elsewhere the second time, and by two consumers at
 * once; and records of several shards interleaved. Whatever the deliveries,
 * every issue counts each of its events once, as the in-memory store does.
 * The events are not written to the table (the run's tally would count them
 * from the real stream, a stream of its own): the deliveries here are the
 * only ones.
 */
const doc = testDoc();
const T0 = Date.parse('2031-03-01T12:00:00Z');

function events(factoryId: string, groups: number[], firstMs: number): StoredEvent[] {
  return groups
    .map((group, i) =>
      withGrouping({
        factoryId,
        keyId: 'key_tally',
        origin: 'https://a.com',
        receivedAt: new Date(firstMs + i * 700).toISOString(),
        expiresAt: Math.floor(firstMs / 1000) + 86_400,
        writeToken: `w${i}`,
        eventId: randomUUID(),
        type: 'error',
        ...(group < 0 ? { message: 'Script error.' } : { message: `boom ${i}`, fingerprint: [`group ${group}`] }),
        release: `web@${i % 3}`,
      }),
    )
    .map((event, i) =>
      // Group -2: an event the grouping rule throws on (a stack that is not text, as no ingest stores): set aside, counted apart.
      groups[i] === -2
        ? ({ ...event, issueId: 'iss_00000000000000000000', fingerprint: undefined, exception: { stack: 42 } } as unknown as StoredEvent)
        : event,
    );
}

const delivery = deliveryArbitrary(40, 12);

test('every event of an issue (and every event filtered or set aside) is counted once whatever the deliveries: repeated, cut elsewhere, by two consumers at once, over two shards', async () => {
  const issues = new DynamoIssueStore(doc, tables.reports);
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.constantFrom(0, 1, 2, -1, 0, 1, -2), { minLength: 5, maxLength: 30 }),
      fc.array(delivery, { minLength: 1, maxLength: 12 }),
      async (groups, deliveries) => {
        const factoryId = newFactoryId('tally');
        const stored = events(factoryId, groups, T0);
        const shards = twoShards(stored);
        const consumers = [new DynamoTallyStore(doc, tables.reports), new DynamoTallyStore(doc, tables.reports)];
        // Deliveries (repeats and overlaps included), two at a time; then the whole of each shard once, as Lambda gets there in the end.
        await playDeliveries(shards, consumers, deliveries);
        await Promise.all(shards.map((shard, s) => tallyBatch(consumers[0] as DynamoTallyStore, `shard${s}`, shard)));
        const memory = new MemoryReportStore();
        await memory.putEvents(stored);
        const nowMs = T0 + 60_000;
        const strip = (list: { issueId: string; count: number; firstSeen: string; status: string }[]) =>
          list.map(({ issueId, count, firstSeen, status }) => ({ issueId, count, firstSeen, status })).sort((a, b) => (a.issueId < b.issueId ? -1 : 1));
        expect(strip(await issues.listIssues(factoryId, { limit: 10, nowMs }))).toEqual(strip(await memory.listIssues(factoryId, { limit: 10, nowMs })));
        expect((await issues.filteredCounts(factoryId)).counts).toEqual((await memory.filteredCounts(factoryId)).counts);
        expect((await issues.setAsideCounts(factoryId)).counts).toEqual((await memory.setAsideCounts(factoryId)).counts);
      },
    ),
    { numRuns: 12 },
  );
}, 180_000);

test('an issue item written before marks existed (the design before) is counted on, from its count, once', async () => {
  const factoryId = newFactoryId('tally');
  const [first, ...rest] = events(factoryId, [0, 0, 0, 0], T0);
  const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
  const { issueKey, issueFeedOf } = await import('../../lambda/infrastructure/store/reports/issue-items');
  const issueId = (first as StoredEvent).issueId as string;
  // As the transaction of the design before left it: a count, no marks, no counts per period.
  await doc.send(
    new PutCommand({
      TableName: tables.reports,
      Item: {
        pk: issueKey(factoryId, issueId),
        feed: issueFeedOf(factoryId, 'open'),
        receivedAt: first?.receivedAt,
        factoryId,
        fingerprint: ['custom', 'group 0'],
        title: 'boom 0',
        count: 7,
        firstSeen: first?.receivedAt,
        lastSeen: first?.receivedAt,
        lastEventId: first?.eventId,
        status: 'open',
        expiresAt: Math.floor(T0 / 1000) + 86_400,
      },
    }),
  );
  const batch = rest.map((event, i) => ({ seq: padSequence(String(10 + i)), event }));
  const store = new DynamoTallyStore(doc, tables.reports);
  await tallyBatch(store, 'shardX', batch);
  await tallyBatch(store, 'shardX', batch);
  const issue = await new DynamoIssueStore(doc, tables.reports).getIssue(factoryId, issueId, T0 + 60_000);
  expect(issue).toMatchObject({ count: 10, firstSeen: first?.receivedAt });
});

test('a batch delivered again cut shorter (split after a failure) leaves every event of the first delivery listed, as it is counted', async () => {
  const factoryId = newFactoryId('tally');
  const stored = events(factoryId, [0, 0, 0, 0, 0, 0, 0, 0], T0);
  const shard = stored.map((event, i) => ({ seq: padSequence(String(500 + i)), event }));
  const store = new DynamoTallyStore(doc, tables.reports);
  // The whole batch counted (its pages written first), then its first half delivered again, as a bisected retry would be.
  await tallyBatch(store, 'shardCut', shard);
  await tallyBatch(store, 'shardCut', shard.slice(0, 3));
  const issueId = (stored[0] as StoredEvent).issueId as string;
  expect(await new DynamoIssueStore(doc, tables.reports).getIssue(factoryId, issueId, T0 + 60_000)).toMatchObject({ count: 8 });
  // What the feed pages list (the events themselves are not in the table here: see above).
  const listedOn = async (index: { indexName: string; partitionKey: string }, value: string) => {
    const { Items = [] } = await doc.send(
      new QueryCommand({
        TableName: tables.reports,
        IndexName: index.indexName,
        KeyConditionExpression: '#owner = :owner',
        ExpressionAttributeNames: { '#owner': index.partitionKey },
        ExpressionAttributeValues: { ':owner': value },
      }),
    );
    const pages = await Promise.all(Items.map(async ({ pk }) => (await doc.send(new GetCommand({ TableName: tables.reports, Key: { pk } }))).Item));
    return [...new Set(pages.flatMap((page) => (page?.refs as string[]).map((ref) => ref.split(' ')[1])))].sort();
  };
  const all = stored.map((event) => event.eventId).sort();
  expect(await listedOn(REPORTS_BY_ISSUE, issueId)).toEqual(all);
  expect(await listedOn(REPORTS_BY_FEED, `${factoryId}#events`)).toEqual(all);
});
