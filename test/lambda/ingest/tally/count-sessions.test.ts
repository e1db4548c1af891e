import { countDiscards, countSessions, countsByRelease } from '../../../../lambda/ingest/tally/count-sessions';
import type { ReleaseCounts, ReleaseCountsStore, SequencedDiscardCount, SequencedSessionCount } from '../../../../lambda/ingest/tally/ports';

/** One batch's session counts into their releases and factories (lambda/ingest/tally/count-sessions.ts); on DynamoDB Local: test/sessions/. */
const count = (seq: string, fields: Partial<SequencedSessionCount> = {}): SequencedSessionCount => ({
  factoryId: 'fac_a',
  release: 'r1',
  environment: 'production',
  hour: 1,
  status: 'started',
  count: 1,
  seq,
  ...fields,
});

test('counts are grouped per factory, environment and release, in stream order', () => {
  const groups = countsByRelease([count('1'), count('2', { release: 'r2' }), count('3'), count('4', { environment: 'staging' })]);
  expect(groups.map((group) => [group.release, group.environment, group.counts.map((c) => c.seq)])).toEqual([
    ['r1', 'production', ['1', '3']],
    ['r2', 'production', ['2']],
    ['r1', 'staging', ['4']],
  ]);
});

test('one write per release and one per factory, whatever the number of sessions; a failed write fails the batch', async () => {
  const releases: ReleaseCounts[] = [];
  const factories: string[] = [];
  const store: ReleaseCountsStore = {
    addToRelease: async (_shard, group) => {
      releases.push(group);
    },
    addToFactory: async (_shard, factoryId) => {
      factories.push(factoryId);
    },
    addDiscards: async () => undefined,
  };
  const many = Array.from({ length: 500 }, (_, i) => count(String(i).padStart(4, '0')));
  expect(await countSessions(store, 'shard', many)).toEqual({ sessionCounts: 500, releases: 1 });
  expect(releases).toHaveLength(1);
  expect(factories).toEqual(['fac_a']);
  expect(await countSessions(store, 'shard', [])).toEqual({ sessionCounts: 0, releases: 0 });
  const failing: ReleaseCountsStore = { ...store, addToFactory: async () => Promise.reject(new Error('store down')) };
  await expect(countSessions(failing, 'shard', many)).rejects.toThrow('store down');
});

test("client report rows: one write per key and day, with that key and day's rows in stream order", async () => {
  const writes: [string, string, string[]][] = [];
  const store: ReleaseCountsStore = {
    addToRelease: async () => undefined,
    addToFactory: async () => undefined,
    addDiscards: async (_shard, keyId, day, rows) => {
      writes.push([keyId, day, rows.map((row) => row.seq)]);
    },
  };
  const row = (seq: string, keyId: string, day: string): SequencedDiscardCount => ({
    keyId,
    day,
    reason: 'ratelimit_backoff',
    category: 'error',
    quantity: 2,
    seq,
  });
  expect(
    await countDiscards(store, 'shard', [
      row('1', 'key_a', '2031-03-01'),
      row('2', 'key_b', '2031-03-01'),
      row('3', 'key_a', '2031-03-01'),
      row('4', 'key_a', '2031-03-02'),
    ]),
  ).toEqual({
    discardRows: 4,
  });
  expect(writes).toEqual([
    ['key_a', '2031-03-01', ['1', '3']],
    ['key_b', '2031-03-01', ['2']],
    ['key_a', '2031-03-02', ['4']],
  ]);
});
