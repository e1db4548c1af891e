import type { ReleaseCounts, ReleaseCountsStore, SequencedDiscardCount, SequencedSessionCount } from './ports';

/** What one batch's sessions did: for the log line. */
export interface SessionsOutcome {
  sessionCounts: number;
  releases: number;
}

/** The counts of a batch per factory and release, each group in stream order, the groups in the order they first appear. */
export function countsByRelease(counts: readonly SequencedSessionCount[]): ReleaseCounts[] {
  const groups = new Map<string, ReleaseCounts>();
  for (const count of counts) {
    const id = JSON.stringify([count.factoryId, count.environment, count.release]);
    const group = groups.get(id) ?? { factoryId: count.factoryId, environment: count.environment, release: count.release, counts: [] };
    group.counts.push(count);
    groups.set(id, group);
  }
  return [...groups.values()];
}

/** The counts of a batch per factory, in stream order. */
function countsByFactory(counts: readonly SequencedSessionCount[]): Map<string, SequencedSessionCount[]> {
  const groups = new Map<string, SequencedSessionCount[]>();
  for (const count of counts) groups.set(count.factoryId, [...(groups.get(count.factoryId) ?? []), count]);
  return groups;
}

/**
 * One stream batch's sessions (docs/release-health.md#how-it-is-counted) counted into their releases and factories:
 * a few writes per release of the batch, whatever the number of sessions, each exactly once (ReleaseCountsStore).
 * Every write settles before the batch ends; the first failure fails the batch, which is delivered again and counts once.
 */
export async function countSessions(store: ReleaseCountsStore, shardKey: string, counts: readonly SequencedSessionCount[]): Promise<SessionsOutcome> {
  if (counts.length === 0) return { sessionCounts: 0, releases: 0 };
  const releases = countsByRelease(counts);
  const writes = await Promise.allSettled([
    ...releases.map((release) => store.addToRelease(shardKey, release)),
    ...[...countsByFactory(counts)].map(([factoryId, list]) => store.addToFactory(shardKey, factoryId, list)),
  ]);
  const failed = writes.find((write): write is PromiseRejectedResult => write.status === 'rejected');
  if (failed) throw failed.reason;
  return { sessionCounts: counts.length, releases: releases.length };
}

/** One batch's client report rows counted per key and day: one write per key and day, exactly once. */
export async function countDiscards(store: ReleaseCountsStore, shardKey: string, discards: readonly SequencedDiscardCount[]): Promise<{ discardRows: number }> {
  const groups = new Map<string, SequencedDiscardCount[]>();
  for (const row of discards) {
    const id = `${row.keyId} ${row.day}`;
    groups.set(id, [...(groups.get(id) ?? []), row]);
  }
  const writes = await Promise.allSettled(
    [...groups.values()].map((rows) => store.addDiscards(shardKey, (rows[0] as SequencedDiscardCount).keyId, (rows[0] as SequencedDiscardCount).day, rows)),
  );
  const failed = writes.find((write): write is PromiseRejectedResult => write.status === 'rejected');
  if (failed) throw failed.reason;
  return { discardRows: discards.length };
}
