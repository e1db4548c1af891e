import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { frameResolverOf } from '../../lambda/ingest/api/ingest-wiring';
import { hashSecret } from '../../lambda/kernel/api-key';
import { receiveEvents, type RequestReceipt } from '../../lambda/ingest/receive-events';
import type { StoredEvent } from '../../lambda/ingest/issues/stored-event';
import { MemoryIngestKeys } from '../../lambda/infrastructure/memory/memory-ingest-keys';
import { MemoryIssueLimiter } from '../../lambda/infrastructure/memory/memory-issue-limiter';
import { MemoryReportStore } from '../../lambda/infrastructure/memory/memory-report-store';
import { MemorySourceMapStore } from '../../lambda/infrastructure/memory/memory-source-map-store';
import { DynamoIssueStore } from '../../lambda/infrastructure/store/reports/dynamo-issue-store';
import { DynamoTallyStore } from '../../lambda/infrastructure/store/reports/tally-writes';
import { padSequence } from '../../lambda/ingest/tally/exactly-once';
import { DynamoIssueAliases } from '../../lambda/infrastructure/store/reports/issue-aliases';
import { fingerprintHash, groupingCandidates, groupingKeys, issueIdOf } from '../../lambda/ingest/grouping/fingerprint';
import { issueByAnyId, withCountingIssue } from '../../lambda/control/issue-ids';
import { controlDependencies } from '../../lambda/control/control-room-wiring';
import { handleControlRequest } from '../../lambda/control/handle-request';
import { tallyBatch } from '../../lambda/ingest/tally/tally-batch';
import { newFactoryId, tables, testDoc } from '../support/local-api';
import { buildBoth, throwIn, type BuiltApp } from '../support/source-map-app';
import { deliveryArbitrary, playDeliveries, twoShards } from '../support/stream-deliveries';

/**
 * Issue aliases on DynamoDB Local (docs/source-maps.md#no-issue-splits): events of one bug from two builds whose
 * minifier named things differently, some received before their map was uploaded, tallied through the real
 * DynamoDB tally with the stream's deliveries played by the test (repeats, cuts, two consumers at once, two
 * shards; each consumer a fresh container with nothing cached). Whatever the deliveries: one issue, every event
 * counted once. (The events are not written to the table, as in tally.test.ts: the deliveries here are the only ones.)
 */
const doc = testDoc();
const KEY_HASH = hashSecret('dfpk_aliases');

let build1: BuiltApp;
let build2: BuiltApp;
beforeAll(async () => {
  [build1, build2] = await buildBoth();
});

/** The events as the ingest API stores them: `plan` says per event which build threw it and whether its map was uploaded by then. */
async function storedEvents(factoryId: string, plan: { build: 1 | 2; mapped: boolean }[]): Promise<StoredEvent[]> {
  const reports = new MemoryReportStore();
  const keys = new MemoryIngestKeys();
  const key = { factoryId, keyId: 'key_00000000000000aa', origins: ['https://shop.example.com'], rateLimit: 60_000 };
  keys.issue(KEY_HASH, { type: 'publishable', ...key });
  const stored: StoredEvent[] = [];
  let clock = Date.parse('2031-03-01T12:00:00Z');
  for (const { build, mapped } of plan) {
    const app = build === 1 ? build1 : build2;
    const maps = new MemorySourceMapStore();
    if (mapped) maps.put(factoryId, { kind: 'debugId', debugId: app.debugId }, app.map);
    const thrown = throwIn(app);
    const eventId = randomUUID();
    clock += 700;
    const receipt: RequestReceipt = {
      factoryId,
      keyId: key.keyId,
      origin: key.origins[0] as string,
      receivedAt: new Date(clock).toISOString(),
      expiresAt: Math.floor(clock / 1000) + 86_400,
      requestToken: randomUUID(),
    };
    const deps = { reports, issueLimits: new MemoryIssueLimiter(), keys, frames: frameResolverOf(maps) };
    await receiveEvents(
      deps,
      { events: [{ eventId, message: thrown.value, exception: thrown, debugIds: thrown.debugIds }] },
      receipt,
      { key, keyHash: KEY_HASH },
      clock,
    );
    stored.push(reports.events.get(`${factoryId}#${eventId}`) as StoredEvent);
  }
  return stored;
}

const plans = fc.array(fc.record({ build: fc.constantFrom<1 | 2>(1, 2), mapped: fc.boolean() }), { minLength: 4, maxLength: 14 });
/** The first event of build 1 comes before its map: the issue is opened on minified frames; then its map arrives. */
const lateMapPlans = plans.map((plan) => [{ build: 1 as const, mapped: false }, { build: 1 as const, mapped: true }, ...plan]);
const NOW_MS = Date.parse('2031-03-01T13:00:00Z');
const issues = new DynamoIssueStore(doc, tables.reports);

test("in stream order, a map uploaded late splits nothing: one issue for both builds, exactly counted (build 2's events without a map stay apart only when one came before its map)", async () => {
  await fc.assert(
    fc.asyncProperty(lateMapPlans, fc.array(deliveryArbitrary(16, 6), { minLength: 1, maxLength: 8 }), async (plan, deliveries) => {
      const factoryId = newFactoryId('alias');
      const stored = await storedEvents(factoryId, plan);
      const shard = stored.map((event, i) => ({ seq: padSequence(String(1000 + i)), event }));
      // One batch after the other (a shard's batches are, unless a retry overlaps): a retry from where it had reached or before.
      const consumers = [new DynamoTallyStore(doc, tables.reports), new DynamoTallyStore(doc, tables.reports)];
      let reached = 0;
      for (const { from, size, consumer } of deliveries) {
        const start = Math.min(from, reached);
        reached = Math.max(reached, start + size);
        await tallyBatch(consumers[consumer] as DynamoTallyStore, 'shard0', shard.slice(start, start + size));
      }
      await tallyBatch(consumers[1] as DynamoTallyStore, 'shard0', shard);
      const firstMapped2 = plan.findIndex((item) => item.build === 2 && item.mapped);
      // Build 2's minified frames are tied to an issue of their own when one of its events comes before its map; its events without a map then stay there.
      const opensApart = plan.some((item, index) => item.build === 2 && !item.mapped && (firstMapped2 === -1 || index < firstMapped2));
      const apart = opensApart ? plan.filter((item) => item.build === 2 && !item.mapped).length : 0;
      const listed = await issues.listIssues(factoryId, { limit: 10, nowMs: NOW_MS });
      const main = listed.find((issue) => issue.issueId === stored[0]?.issueId);
      expect(main?.count).toBe(plan.length - apart);
      expect(listed.map((issue) => issue.count).sort()).toEqual((apart > 0 ? [apart, plan.length - apart] : [plan.length]).sort());
    }),
    { numRuns: 6 },
  );
}, 240_000);

test('over two shards and two consumers at once, whatever the deliveries: every event counted once, all resolved events in one issue', async () => {
  await fc.assert(
    fc.asyncProperty(lateMapPlans, fc.array(deliveryArbitrary(16, 6), { minLength: 1, maxLength: 8 }), async (plan, deliveries) => {
      const factoryId = newFactoryId('alias');
      const stored = await storedEvents(factoryId, plan);
      const shards = twoShards(stored);
      const consumers = [new DynamoTallyStore(doc, tables.reports), new DynamoTallyStore(doc, tables.reports)];
      await playDeliveries(shards, consumers, deliveries);
      await Promise.all(shards.map((shard, s) => tallyBatch(consumers[0] as DynamoTallyStore, `shard${s}`, shard)));
      // Each event's issue is the one its first grouping candidate is tied to: read the ties as they ended.
      const firstHashes = stored.map((event) => fingerprintHash(groupingCandidates(event)[0] as string[]));
      const ties = await new DynamoIssueAliases(doc, tables.reports).issuesOfHashes(factoryId, firstHashes);
      const expected = new Map<string, number>();
      for (const hash of firstHashes) expected.set(ties.get(hash) as string, (expected.get(ties.get(hash) as string) ?? 0) + 1);
      const listed = await issues.listIssues(factoryId, { limit: 10, nowMs: NOW_MS });
      expect(new Map(listed.map((issue) => [issue.issueId, issue.count]))).toEqual(expected);
      const resolvedIssues = new Set(stored.flatMap((event, i) => (event.frames?.[0]?.original ? [ties.get(firstHashes[i] as string)] : [])));
      expect(resolvedIssues.size).toBe(1);
    }),
    { numRuns: 6 },
  );
}, 240_000);

test('an issue an older grouping version opened keeps its id and its events, and every id an event of it showed opens it (version 3 ties its own hash and the ids as aliases)', async () => {
  const factoryId = newFactoryId('alias');
  const stack =
    'TypeError: x\n    at Object.cartError (https://shop.example.com/assets/app-1a2b3c4d.js:1:2)\n    at async main (https://shop.example.com/assets/app-1a2b3c4d.js:2:2)';
  const base = { factoryId, keyId: 'key_00000000000000aa', origin: 'https://shop.example.com', expiresAt: 2_000_000_000, writeToken: 't' };
  const event = (n: number): StoredEvent => ({
    ...base,
    eventId: randomUUID(),
    type: 'error',
    receivedAt: new Date(Date.parse('2031-03-01T12:00:00Z') + n * 1000).toISOString(),
    exception: { type: 'TypeError', value: 'x', stack },
  });
  const { current, legacy } = groupingKeys(event(0));
  const v1 = legacy[legacy.length - 1] as string[];
  expect(current[0]).not.toEqual(v1);
  // As the tally before version 3 left it: the version 1 hash tied to the issue that counted its events.
  const counting = 'iss_0123456789abcdef0123';
  await new DynamoIssueAliases(doc, tables.reports).tieHashes(factoryId, new Map([[fingerprintHash(v1), counting]]));
  const named = issueIdOf(factoryId, current[0] as string[]);
  const events = [1, 2].map((n) => ({ ...event(n), issueId: named }));
  await tallyBatch(
    new DynamoTallyStore(doc, tables.reports),
    'shard0',
    events.map((item, i) => ({ seq: padSequence(String(1 + i)), event: item })),
  );
  expect((await issues.listIssues(factoryId, { limit: 10, nowMs: NOW_MS })).map((issue) => [issue.issueId, issue.count])).toEqual([[counting, 2]]);
  // The id the events were stored with, and the id an event stored before version 3 showed (its version 1 id), both open it.
  for (const shown of [named, issueIdOf(factoryId, v1)]) expect((await issueByAnyId(issues, factoryId, shown, NOW_MS))?.issueId).toBe(counting);
  expect((await withCountingIssue(issues, factoryId, [events[0] as unknown as Record<string, unknown>]))[0]).toMatchObject({ issueId: counting });
  // Through the control room's operations, as `reports issue --issue <id>` and `reports resolve` call them.
  const control = { ...controlDependencies(doc, tables, 'Platform'), now: () => new Date(NOW_MS) };
  const operator = { principal: 'arn:aws:sts::123456789012:assumed-role/ControlRoom/ada' };
  const shown = await handleControlRequest(control, { operation: 'issues.show', factoryId, issueId: named }, operator);
  expect([shown.status, (shown.body.issue as { issueId: string }).issueId]).toEqual([200, counting]);
  const resolved = await handleControlRequest(control, { operation: 'issues.resolve', factoryId, issueId: issueIdOf(factoryId, v1) }, operator);
  expect([resolved.status, (resolved.body.issue as { issueId: string; status: string }).status]).toEqual([200, 'resolved']);
  const unknown = await handleControlRequest(control, { operation: 'issues.show', factoryId, issueId: 'iss_ffffffffffffffffffff' }, operator);
  expect(unknown.status).toBe(404);
});
