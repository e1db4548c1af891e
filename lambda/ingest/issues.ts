import { isExpired, type FilterReason, type Issue, type IssueSeed } from '../issues/issue';
import type { StoredEvent } from './ports';

export { byLastSeen, changeStatus, FILTER_REASONS, isExpired, ISSUE_STATUSES, issueView } from '../issues/issue';
export type { FilterReason, FilteredCounts, Issue, IssueSeed, IssueStatus } from '../issues/issue';

/**
 * Issues: the events of one factory grouped by fingerprint (fingerprint.ts),
 * one record each, kept as events arrive (docs/report-issues.md). This module
 * states the rules plainly, free of storage: what one request adds to each
 * issue (issueDeltas) and what an issue becomes when it does (applyDelta).
 * The in-memory store applies them as written; the DynamoDB store expresses
 * the same rules as conditional update expressions (lambda/store/issue-writes.ts).
 */


/** An event on its way to the store: grouped into an issue, or filtered (counted apart, no issue). */
export type EventToStore = { event: StoredEvent; issue: IssueSeed } | { event: StoredEvent; filtered: FilterReason };

/** What one request's newly stored events add to one issue. */
export interface IssueDelta extends IssueSeed {
  factoryId: string;
  /** Events of this request in this issue (each stored now, none a duplicate). */
  count: number;
  /** Receive time of the request (ISO 8601 UTC): first and last seen of its events. */
  seenAt: string;
  /** The release of the first and of the last of its events that name one. */
  firstRelease?: string;
  lastRelease?: string;
  /** The last of its events, in request order. */
  lastEventId: string;
  /** Epoch seconds: the issue lives until no event has come for the retention period. */
  expiresAt: number;
}

/** Filtered events of one request, counted apart per reason. */
export interface FilteredDelta {
  factoryId: string;
  counts: Partial<Record<FilterReason, number>>;
  seenAt: string;
  expiresAt: number;
}



/** One delta per issue, in the order the issues first appear in the request. */
export function issueDeltas(events: readonly EventToStore[]): IssueDelta[] {
  const byIssue = new Map<string, IssueDelta>();
  for (const item of events) {
    if (!('issue' in item)) continue;
    const { event, issue } = item;
    const delta = byIssue.get(issue.issueId);
    if (!delta) {
      byIssue.set(issue.issueId, {
        ...issue,
        factoryId: event.factoryId,
        count: 1,
        seenAt: event.receivedAt,
        ...(event.release === undefined ? {} : { firstRelease: event.release, lastRelease: event.release }),
        lastEventId: event.eventId,
        expiresAt: event.expiresAt,
      });
      continue;
    }
    delta.count += 1;
    delta.lastEventId = event.eventId;
    if (event.receivedAt > delta.seenAt) delta.seenAt = event.receivedAt;
    delta.expiresAt = Math.max(delta.expiresAt, event.expiresAt);
    if (event.release !== undefined) {
      delta.firstRelease ??= event.release;
      delta.lastRelease = event.release;
    }
  }
  return [...byIssue.values()];
}

/** The filtered events of a request, or undefined when there are none. */
export function filteredDelta(events: readonly EventToStore[]): FilteredDelta | undefined {
  let delta: FilteredDelta | undefined;
  for (const item of events) {
    if (!('filtered' in item)) continue;
    const { event, filtered } = item;
    delta ??= { factoryId: event.factoryId, counts: {}, seenAt: event.receivedAt, expiresAt: event.expiresAt };
    delta.counts[filtered] = (delta.counts[filtered] ?? 0) + 1;
    if (event.receivedAt > delta.seenAt) delta.seenAt = event.receivedAt;
    delta.expiresAt = Math.max(delta.expiresAt, event.expiresAt);
  }
  return delta;
}

/** Epoch seconds of an ISO time: the clock the expiry of an issue is read against. */
export const epochSeconds = (iso: string): number => Math.floor(Date.parse(iso) / 1000);


/**
 * What an issue becomes when a request adds its events:
 *   none, or expired  → a new open issue, with this request's events only;
 *   resolved          → open again, its count carried on, and a regression recorded;
 *   open or ignored   → the same status, counted.
 * First seen, first release and the title stay as first written; last seen,
 * last release, the last event and the expiry move.
 */
export function applyDelta(existing: Issue | undefined, delta: IssueDelta): { issue: Issue; regressed: boolean } {
  const { factoryId, issueId, fingerprint, title, count, seenAt, firstRelease, lastRelease, lastEventId, expiresAt } = delta;
  if (!existing || isExpired(existing, epochSeconds(seenAt))) {
    const issue: Issue = { issueId, factoryId, fingerprint, title, count, firstSeen: seenAt, lastSeen: seenAt, lastEventId, status: 'open', expiresAt };
    if (firstRelease !== undefined) issue.firstRelease = firstRelease;
    if (lastRelease !== undefined) issue.lastRelease = lastRelease;
    return { issue, regressed: false };
  }
  const regressed = existing.status === 'resolved';
  const issue: Issue = {
    ...existing,
    count: existing.count + count,
    lastSeen: seenAt,
    lastEventId,
    expiresAt,
    ...(existing.firstRelease === undefined && firstRelease !== undefined ? { firstRelease } : {}),
    ...(lastRelease === undefined ? {} : { lastRelease }),
    ...(regressed ? { status: 'open' as const, regressions: (existing.regressions ?? 0) + 1, regressedAt: seenAt } : {}),
  };
  return { issue, regressed };
}



