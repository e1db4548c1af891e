import fc from 'fast-check';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { withGrouping } from '../../lambda/ingest/receive-events';
import { issueView } from '../../lambda/ingest/issues/issue';
import type { StoredEvent } from '../../lambda/ingest/issues/stored-event';
import { addVisitors, visitorCount } from '../../lambda/ingest/issues/visitors';
import { EXACT_LIMIT } from '../../lambda/kernel/distinct-sketch';
import { MemoryReportStore } from '../../lambda/infrastructure/memory/memory-report-store';
import { DynamoIssueStore } from '../../lambda/infrastructure/store/reports/dynamo-issue-store';
import { issueKey } from '../../lambda/infrastructure/store/reports/issue-items';
import { DynamoTallyStore } from '../../lambda/infrastructure/store/reports/tally-writes';
import { tallyBatch } from '../../lambda/ingest/tally/tally-batch';
import { newFactoryId, tables, testDoc } from '../support/local-api';
import { deliveryArbitrary, playDeliveries, twoShards } from '../support/stream-deliveries';

/**
 * Visitors affected (docs/report-issues.md#visitors-affected): the sketch
 * of visitor hashes depends on the hashes alone (pure, fast-check), and the
 * DynamoDB tally keeps it in the count's own write as the in-memory store
 * does, whatever the deliveries (two shards, two consumers at once, batches
 * repeated and cut elsewhere), with the set kept to its bound.
 */
const doc = testDoc();
const T0 = Date.parse('2031-04-01T12:00:00Z');
const hash = () => randomBytes(6).toString('base64url');

test('a sketch depends only on the hashes added: any order, any batching, any repeats', () => {
  fc.assert(
    fc.property(
      fc.array(fc.stringMatching(/^[A-Za-z0-9_-]{8}$/), { maxLength: 400 }),
      fc.array(fc.nat(50), { maxLength: 20 }),
      fc.nat(),
      (hashes, cuts, seed) => {
        const whole = addVisitors(undefined, hashes);
        // The same hashes, shuffled by the seed, some twice, in batches cut at `cuts`.
        const shuffled = [...hashes, ...hashes.slice(0, seed % 7)].sort(
          (a, b) => (a.charCodeAt(seed % 8) ?? 0) - (b.charCodeAt(seed % 8) ?? 0) || (seed % 2 ? 1 : -1) * a.localeCompare(b),
        );
        let sample = undefined as ReturnType<typeof addVisitors> | undefined;
        let from = 0;
        for (const cut of [...cuts, shuffled.length]) {
          sample = addVisitors(sample, shuffled.slice(from, from + cut + 1));
          from += cut + 1;
          if (from >= shuffled.length) break;
        }
        sample = addVisitors(sample, shuffled.slice(from));
        expect(sample).toEqual(whole);
        expect(visitorCount(whole)).toEqual(
          new Set(hashes).size <= EXACT_LIMIT ? { count: new Set(hashes).size, exact: true } : { count: expect.any(Number), exact: false },
        );
      },
    ),
  );
});

test('the estimate beyond the exact range: over 200 sets of 5,000 visitors, the root mean square error is under 3 % and none is off by 6 %', () => {
  const errors: number[] = [];
  // Hashes as uniform as the salted ones, but the same on every run: the bound is checked, not the luck of one run.
  const fixed = (run: number, i: number) => createHash('sha256').update(`${run}/${i}`).digest('base64url').slice(0, 8);
  for (let run = 0; run < 200; run += 1)
    errors.push(
      visitorCount(
        addVisitors(
          undefined,
          Array.from({ length: 5000 }, (_, i) => fixed(run, i)),
        ),
      ).count /
        5000 -
        1,
    );
  const rms = Math.sqrt(errors.reduce((sum, error) => sum + error * error, 0) / errors.length);
  expect(rms).toBeLessThan(0.03);
  expect(Math.max(...errors.map(Math.abs))).toBeLessThan(0.06);
});

function events(factoryId: string, visitors: string[], count: number): StoredEvent[] {
  return Array.from({ length: count }, (_, i) =>
    withGrouping({
      factoryId,
      keyId: 'key_visitors',
      origin: 'https://a.com',
      receivedAt: new Date(T0 + i * 50).toISOString(),
      expiresAt: Math.floor(T0 / 1000) + 86_400,
      writeToken: `w${i}`,
      eventId: randomUUID(),
      type: 'error',
      message: 'boom',
      fingerprint: ['one issue'],
      // Every fifth event from before visitors were counted: none.
      ...(i % 5 === 4 ? {} : { visitor: visitors[i % visitors.length] as string }),
    }),
  );
}

const delivery = deliveryArbitrary(300, 120);

test('DynamoDB keeps the same sketch as memory whatever the deliveries, exact up to the bound and estimated beyond; the set stays within its bound', async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(40, 100, 180, 260), fc.array(delivery, { minLength: 1, maxLength: 8 }), async (distinct, deliveries) => {
      const factoryId = newFactoryId('visit');
      const visitors = Array.from({ length: distinct }, hash);
      const stored = events(factoryId, visitors, 320);
      const shards = twoShards(stored);
      const consumers = [new DynamoTallyStore(doc, tables.reports), new DynamoTallyStore(doc, tables.reports)];
      await playDeliveries(shards, consumers, deliveries);
      // The rest of each shard, one after the other, as Lambda gets there in the end.
      for (const [s, shard] of shards.entries()) await tallyBatch(consumers[0] as DynamoTallyStore, `shard${s}`, shard);
      const memory = new MemoryReportStore();
      await memory.putEvents(stored);
      const issueId = stored[0]?.issueId as string;
      const nowMs = T0 + 60_000;
      const fromDynamo = issueView((await new DynamoIssueStore(doc, tables.reports).getIssue(factoryId, issueId, nowMs))!);
      const fromMemory = issueView((await memory.getIssue(factoryId, issueId, nowMs))!);
      const sent = new Set(stored.flatMap((event) => (event.visitor === undefined ? [] : [event.visitor])));
      const expected = visitorCount(addVisitors(undefined, [...sent]));
      expect([fromDynamo.count, fromDynamo.visitors, fromDynamo.visitorsExact]).toEqual([320, expected.count, expected.exact]);
      expect([fromMemory.visitors, fromMemory.visitorsExact]).toEqual([expected.count, expected.exact]);
      if (sent.size <= EXACT_LIMIT) expect(expected).toEqual({ count: sent.size, exact: true });
      const item = (await doc.send(new GetCommand({ TableName: tables.reports, Key: { pk: issueKey(factoryId, issueId) } }))).Item ?? {};
      expect((item.visitors as Set<string> | undefined)?.size ?? 0).toBeLessThanOrEqual(EXACT_LIMIT);
    }),
    {
      numRuns: 10,
      // Always tried: two consumers whose knowledge of the set goes stale in turn, so registers written from a stale set would lose the other's hashes.
      examples: [
        [
          180,
          [
            { from: 0, size: 1, consumer: 0 },
            { from: 0, size: 36, consumer: 0 },
            { from: 1, size: 89, consumer: 1 },
            { from: 35, size: 89, consumer: 0 },
          ],
        ],
      ],
    },
  );
}, 180_000);

test('an issue counted with the older sample above level 0 reads as it was, and its next count keeps that estimate beside a sketch', async () => {
  const factoryId = newFactoryId('oldvis');
  const first = events(factoryId, [hash()], 1);
  const tally = new DynamoTallyStore(doc, tables.reports);
  await tallyBatch(tally, 'shard0', [{ seq: '1'.padStart(40, '0'), event: first[0] as StoredEvent }]);
  const issueId = first[0]?.issueId as string;
  const key = { pk: issueKey(factoryId, issueId) };
  // As the older sample left it: three hashes passing level 2, each standing for four visitors.
  await doc.send(
    new UpdateCommand({
      TableName: tables.reports,
      Key: key,
      UpdateExpression: 'SET visitors = :set, vlevel = :level',
      ExpressionAttributeValues: { ':set': new Set(['AAAAAAAA', 'Azzzzzzz', 'Bzzzzzzz']), ':level': 2 },
    }),
  );
  const store = new DynamoIssueStore(doc, tables.reports);
  expect(issueView((await store.getIssue(factoryId, issueId, T0 + 60_000))!)).toMatchObject({ visitors: 12, visitorsExact: false });
  const later = events(factoryId, Array.from({ length: 4 }, hash), 5)
    .slice(0, 4)
    .map((event, i) => ({ seq: String(2 + i).padStart(40, '0'), event }));
  await tallyBatch(tally, 'shard0', later);
  expect(issueView((await store.getIssue(factoryId, issueId, T0 + 60_000))!)).toMatchObject({ count: 5, visitors: 16, visitorsExact: false });
  const item = (await doc.send(new GetCommand({ TableName: tables.reports, Key: key }))).Item ?? {};
  expect([item.vlevel, item.vbase, (item.visitors as Set<string>).size]).toEqual([undefined, 12, 4]);
});
