import { addCounts, epochSeconds, type IssueDelta } from './deltas';
import { isExpired, type Issue } from './issue';

/**
 * What an issue becomes when new events are added to it
 * (docs/report-issues.md#issues-and-their-lifecycle):
 *   none, or expired  → a new open issue, with these events only;
 *   resolved          → open again, its count carried on, and a regression recorded;
 *   open or ignored   → the same status, counted.
 * First seen, first release and the title stay as first written; last seen,
 * last release, the last event and the expiry move. The in-memory store
 * applies this as written; the DynamoDB tally states the same rules as
 * conditional updates (lambda/store/tally-writes.ts), and a property test
 * holds the two equal.
 */
export function applyDelta(existing: Issue | undefined, delta: IssueDelta): { issue: Issue; regressed: boolean; opened: boolean } {
  const { factoryId, issueId, fingerprint, title, count, firstSeenAt, lastSeenAt, firstRelease, lastRelease, lastEventId, expiresAt, counts } = delta;
  if (!existing || isExpired(existing, epochSeconds(lastSeenAt))) {
    const issue: Issue = { issueId, factoryId, fingerprint, title, count, firstSeen: firstSeenAt, lastSeen: lastSeenAt, lastEventId, status: 'open', expiresAt, counts };
    if (firstRelease !== undefined) issue.firstRelease = firstRelease;
    if (lastRelease !== undefined) issue.lastRelease = lastRelease;
    return { issue, regressed: false, opened: true };
  }
  const regressed = existing.status === 'resolved';
  const issue: Issue = {
    ...existing,
    count: existing.count + count,
    lastSeen: lastSeenAt,
    lastEventId,
    expiresAt,
    counts: addCounts(existing.counts, counts),
    ...(existing.firstRelease === undefined && firstRelease !== undefined ? { firstRelease } : {}),
    ...(lastRelease === undefined ? {} : { lastRelease }),
    ...(regressed ? { status: 'open' as const, regressions: (existing.regressions ?? 0) + 1, regressedAt: firstSeenAt } : {}),
  };
  return { issue, regressed, opened: false };
}
