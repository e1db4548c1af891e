import type { FilterReason } from './fingerprint';
import type { StoredEvent } from './ports';

/**
 * Issues: the events of one factory grouped by fingerprint (fingerprint.ts),
 * one record each, kept as events arrive (docs/report-issues.md). This module
 * states the rules plainly, free of storage: what one request adds to each
 * issue (issueDeltas) and what an issue becomes when it does (applyDelta).
 * The in-memory store applies them as written; the DynamoDB store expresses
 * the same rules as conditional update expressions (lambda/store/issue-writes.ts).
 */

export const ISSUE_STATUSES = ['open', 'resolved', 'ignored'] as const;
export type IssueStatus = (typeof ISSUE_STATUSES)[number];

/** The issue an event opens or counts toward: known from the event alone. */
export interface IssueSeed {
  issueId: string;
  fingerprint: string[];
  title: string;
}

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

export interface Issue extends IssueSeed {
  factoryId: string;
  count: number;
  firstSeen: string;
  lastSeen: string;
  firstRelease?: string;
  lastRelease?: string;
  lastEventId: string;
  status: IssueStatus;
  /** Times a resolved issue received a new event and reopened, and the last time it did. */
  regressions?: number;
  regressedAt?: string;
  /** The last status change made in the control room: when and by whom. */
  statusChangedAt?: string;
  statusChangedBy?: string;
  /** Epoch seconds: DynamoDB's time to live removes the issue then. */
  expiresAt: number;
}

/** The events filtered for a factory, counted apart: never an issue. */
export interface FilteredCounts {
  factoryId: string;
  counts: Partial<Record<FilterReason, number>>;
  lastSeen?: string;
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

/** An issue past its expiry is gone, even before DynamoDB's time to live has removed it. */
export const isExpired = (issue: Pick<Issue, 'expiresAt'>, nowSeconds: number): boolean => issue.expiresAt <= nowSeconds;

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

/** A status change in the control room: when and by whom are recorded; nothing else moves. */
export function changeStatus(issue: Issue, status: IssueStatus, at: string, by: string): Issue {
  return { ...issue, status, statusChangedAt: at, statusChangedBy: by };
}

/** Most recently seen first; issues seen at the same instant by id, so every store lists them alike. */
export function byLastSeen(a: Pick<Issue, 'lastSeen' | 'issueId'>, b: Pick<Issue, 'lastSeen' | 'issueId'>): number {
  if (a.lastSeen !== b.lastSeen) return a.lastSeen < b.lastSeen ? 1 : -1;
  return a.issueId < b.issueId ? -1 : a.issueId > b.issueId ? 1 : 0;
}

/** An issue as the control room shows it: what a person reads first, first; the expiry left out (the rule says it). */
export function issueView(issue: Issue) {
  const { issueId, title, status, count, firstSeen, lastSeen, firstRelease, lastRelease, lastEventId, regressions, regressedAt, statusChangedAt, statusChangedBy, fingerprint, factoryId } = issue;
  return { issueId, title, status, count, firstSeen, lastSeen, firstRelease, lastRelease, lastEventId, regressions, regressedAt, statusChangedAt, statusChangedBy, fingerprint, factoryId };
}
