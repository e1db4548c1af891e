import { countingIssueId, issueByAnyId, issueKeysOf, withCountingIssue } from '../../../lambda/control/issue-ids';
import { fingerprintHash, issueIdOf } from '../../../lambda/ingest/grouping/fingerprint';
import { MemoryReportStore } from '../../../lambda/infrastructure/memory/memory-report-store';

/** Issue ids as events and alerts show them (docs/report-issues.md#issue-ids), on the in-memory store's ties. */

const FACTORY = 'fac_ids';
const custom = ['custom', 'checkout'];
const event = { factoryId: FACTORY, eventId: 'e1', type: 'error', fingerprint: ['checkout'], issueId: issueIdOf(FACTORY, custom) };

test("an event's keys: the hash of the fingerprint that named its id, then the id itself (an id alias)", () => {
  expect(issueKeysOf(event)).toEqual([fingerprintHash(custom), event.issueId]);
  expect(issueKeysOf({ ...event, issueId: 'iss_00000000000000000000' })).toEqual(['iss_00000000000000000000']);
  expect(issueKeysOf({ eventId: 'e2' })).toEqual([]);
});

test('an event shows the issue its naming hash is tied to, and keeps its id when nothing is tied', async () => {
  const store = new MemoryReportStore();
  expect(await withCountingIssue(store, FACTORY, [event])).toEqual([event]);
  await store.tieHashes(FACTORY, new Map([[fingerprintHash(custom), 'iss_11111111111111111111']]));
  expect((await withCountingIssue(store, FACTORY, [event]))[0]?.issueId).toBe('iss_11111111111111111111');
});

test('an id with no issue of its own opens the issue it is an alias of; an unknown id opens nothing', async () => {
  const store = new MemoryReportStore();
  await store.tieHashes(FACTORY, new Map([['iss_22222222222222222222', 'iss_33333333333333333333']]));
  // No issue iss_3… exists in this store: the alias alone opens nothing.
  expect(await issueByAnyId(store, FACTORY, 'iss_22222222222222222222', Date.now())).toBeUndefined();
  expect(await countingIssueId(store, FACTORY, 'iss_44444444444444444444', Date.now())).toBe('iss_44444444444444444444');
});
