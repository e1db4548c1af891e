import { addCounts, compareSeen, epochSeconds, type IssueDelta } from './deltas';
import type { Issue } from './issue';
import { DECISIONS, itemStateOf } from './lifecycle';
import { addAffected, affectsCounts } from './affected';
import { addVisitors } from './visitors';

/**
 * Whether new events move an issue's last seen (the latest of them comes
 * after its last event, by receive time then eventId) and its first seen
 * (the earliest comes before its first event). An issue kept before its
 * first event was is moved back only by an earlier time.
 */
export function movesOf(
  existing: Pick<Issue, 'lastSeen' | 'lastEventId' | 'firstSeen' | 'firstEventId'>,
  delta: Pick<IssueDelta, 'lastSeenAt' | 'lastEventId' | 'firstSeenAt' | 'firstEventId'>,
): { movesLast: boolean; movesFirst: boolean } {
  const movesLast = compareSeen([delta.lastSeenAt, delta.lastEventId], [existing.lastSeen, existing.lastEventId]) > 0;
  const movesFirst =
    existing.firstEventId === undefined
      ? delta.firstSeenAt < existing.firstSeen
      : compareSeen([delta.firstSeenAt, delta.firstEventId], [existing.firstSeen, existing.firstEventId]) < 0;
  return { movesLast, movesFirst };
}

/**
 * What an issue becomes when new events are added to it, by the one decision
 * table (./lifecycle.ts, docs/report-issues.md#issues-and-their-lifecycle):
 *   none, or expired  → a new open issue, with these events only;
 *   resolved          → open again, its count carried on, and a regression recorded;
 *   open or ignored   → the same status, counted.
 * Its visitors' hashes join its sketch (./visitors.ts), which depends on the
 * hashes only, never on their order or repeats; the people and companies its
 * events counted first join its counts (./affected.ts).
 * First and last seen are the earliest and the latest receive times of all
 * the events counted, in whatever order they are counted (the tally counts
 * each stream shard on its own): last seen, the last event, the last release
 * and the expiry move only with events later than those counted before, first
 * seen, the first event, its title and the first release only with earlier
 * ones. The in-memory store applies this as written; the DynamoDB tally
 * writes each row of the table as a conditional write
 * (lambda/infrastructure/store/reports/tally-writes.ts), and property tests
 * hold the two equal.
 */
export function applyDelta(existing: Issue | undefined, delta: IssueDelta): { issue: Issue; regressed: boolean; opened: boolean } {
  // Kept in memory, an issue always has its bookkeeping: never unmarked.
  const state = itemStateOf(existing && { expiresAt: existing.expiresAt, status: existing.status, marked: true }, epochSeconds(delta.lastSeenAt));
  const decision = DECISIONS[state];
  if (!existing || decision.write === 'open') return { issue: openedIssue(delta), regressed: false, opened: true };
  const regressed = decision.regression;
  const { movesLast, movesFirst } = movesOf(existing, delta);
  const { count, counts, lastSeenAt, lastEventId, expiresAt, lastRelease, firstSeenAt, firstEventId, title, firstRelease } = delta;
  const issue: Issue = {
    ...existing,
    count: existing.count + count,
    counts: addCounts(existing.counts, counts),
    ...(delta.visitors.length > 0 ? { visitors: addVisitors(existing.visitors, delta.visitors) } : {}),
    ...(affectsCounts(delta.affected) ? { affected: addAffected(existing.affected, delta.affected) } : {}),
    ...(movesLast ? { lastSeen: lastSeenAt, lastEventId, expiresAt } : {}),
    ...(lastRelease !== undefined && (movesLast || existing.lastRelease === undefined) ? { lastRelease } : {}),
    ...(movesFirst ? { firstSeen: firstSeenAt, firstEventId, title } : {}),
    ...(firstRelease !== undefined && (movesFirst || existing.firstRelease === undefined) ? { firstRelease } : {}),
    ...(regressed ? { status: 'open' as const, regressions: (existing.regressions ?? 0) + 1, regressedAt: firstSeenAt } : {}),
  };
  return { issue, regressed, opened: false };
}

/** A new open issue holding the delta's events only. */
function openedIssue(delta: IssueDelta): Issue {
  const { factoryId, issueId, fingerprint, title, count, firstSeenAt, lastSeenAt, firstRelease, lastRelease, firstEventId, lastEventId, expiresAt, counts } =
    delta;
  const issue: Issue = {
    issueId,
    factoryId,
    fingerprint,
    title,
    count,
    firstSeen: firstSeenAt,
    lastSeen: lastSeenAt,
    firstEventId,
    lastEventId,
    status: 'open',
    expiresAt,
    counts,
  };
  if (delta.visitors.length > 0) issue.visitors = addVisitors(undefined, delta.visitors);
  if (affectsCounts(delta.affected)) issue.affected = addAffected(undefined, delta.affected);
  if (firstRelease !== undefined) issue.firstRelease = firstRelease;
  if (lastRelease !== undefined) issue.lastRelease = lastRelease;
  return issue;
}
