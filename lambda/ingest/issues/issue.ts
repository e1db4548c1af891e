import { descending } from '../../kernel/descending';
import { recentCounts, type PeriodCounts } from './buckets';
import { noneAffected, type AffectedEraser, type AffectedReader, type IssueAffected } from './affected';
import { visitorCount, type IssueVisitors } from './visitors';
import type { EventView, FilterReason } from './stored-event';

/**
 * Bug-report issues as every side sees them (docs/report-issues.md): the
 * ingest API stores events, the tally counts them into their issues
 * (./deltas.ts, ./apply-delta.ts), the control room reads issues and changes
 * their status. Shared, so that neither function carries the other's modules.
 */

/** An issue id: `iss_` and 20 hex characters (lambda/ingest/grouping/fingerprint.ts makes it; whoever reads one checks it here). */
export const ISSUE_ID_PATTERN = /^iss_[0-9a-f]{20}$/;

export const ISSUE_STATUSES = ['open', 'resolved', 'ignored'] as const;
export type IssueStatus = (typeof ISSUE_STATUSES)[number];

/** Where a page of the issue list ended: the last issue's sort value (last seen, events or visitors) and its id (./issue-list.ts). */
export interface ListPosition {
  value: string | number;
  issueId: string;
}

/** The issue an event opens or counts toward: known from the event alone. */
export interface IssueSeed {
  issueId: string;
  fingerprint: string[];
  title: string;
}

export interface Issue extends IssueSeed {
  factoryId: string;
  count: number;
  firstSeen: string;
  lastSeen: string;
  firstRelease?: string;
  lastRelease?: string;
  lastEventId: string;
  /** The earliest event counted (by receive time, then eventId); absent on issues from before it was kept. */
  firstEventId?: string;
  status: IssueStatus;
  /** Times a resolved issue received a new event and reopened, and the last time it did. */
  regressions?: number;
  regressedAt?: string;
  /** The last status change made in the control room: when and by whom. */
  statusChangedAt?: string;
  statusChangedBy?: string;
  /** Epoch seconds: DynamoDB's time to live removes the issue then. */
  expiresAt: number;
  /** Its events per 5 minutes, hour and day, the recent ones (./buckets.ts). */
  counts?: Partial<PeriodCounts>;
  /** Its anonymous visitors' daily hashes, as a distinct sketch (./visitors.ts); absent on issues counted before visitors were. */
  visitors?: IssueVisitors;
  /** The people and companies counted into it (./affected.ts); absent until an event names someone. */
  affected?: IssueAffected;
}

/** The events filtered for a factory, counted apart: never an issue. */
export interface FilteredCounts {
  factoryId: string;
  counts: Partial<Record<FilterReason, number>>;
  lastSeen?: string;
}

/**
 * Why the tally set a stored event aside instead of counting it (lambda/ingest/tally/countable.ts,
 * docs/report-issues.md#events-set-aside): its stream record could not be read as an item, a field the tally reads
 * is missing or of the wrong kind, or the grouping rule failed on it. The event stays stored; it is counted apart.
 */
export const SET_ASIDE_REASONS = ['unreadable', 'malformed', 'ungroupable'] as const;
export type SetAsideReason = (typeof SET_ASIDE_REASONS)[number];

/** The events of a factory the tally set aside, per reason, and the latest one (its id, why, and the field or error's name). */
export interface SetAsideCounts {
  factoryId: string;
  counts: Partial<Record<SetAsideReason, number>>;
  last?: { eventId: string; reason: SetAsideReason; detail?: string; at: string };
}

/** An issue past its expiry is gone, even before DynamoDB's time to live has removed it. */
export const isExpired = (issue: Pick<Issue, 'expiresAt'>, nowSeconds: number): boolean => issue.expiresAt <= nowSeconds;

/** The issue as read at `nowMs`: its counts per period without the periods too old to keep (the stores drop those lazily). */
export function issueAsOf(issue: Issue, nowMs: number): Issue {
  return issue.counts === undefined ? issue : { ...issue, counts: recentCounts(issue.counts, nowMs) };
}

/** A status change in the control room: when and by whom are recorded; nothing else moves. */
export function changeStatus(issue: Issue, status: IssueStatus, at: string, by: string): Issue {
  return { ...issue, status, statusChangedAt: at, statusChangedBy: by };
}

/**
 * Most recently seen first; issues seen at the same instant by id,
 * descending (the byFeed index's order: its key, descending), so every store
 * lists them alike and a cursor resumes exactly.
 */
export const byLastSeen = descending<Pick<Issue, 'lastSeen' | 'issueId'>>(
  (issue) => issue.lastSeen,
  (issue) => issue.issueId,
);

/** An issue as the control room shows it: what a person reads first, first; the expiry left out (the rule says it). */
export function issueView(issue: Issue) {
  const {
    issueId,
    title,
    status,
    count,
    firstSeen,
    lastSeen,
    firstRelease,
    lastRelease,
    lastEventId,
    regressions,
    regressedAt,
    statusChangedAt,
    statusChangedBy,
    fingerprint,
    factoryId,
  } = issue;
  // Visitors as a count, never the hashes (docs/report-issues.md#visitors-affected); people and companies as counts too.
  const { count: visitors, exact: visitorsExact } = visitorCount(issue.visitors);
  const { contacts, companies, notInCrm } = issue.affected ?? noneAffected();
  return {
    issueId,
    title,
    status,
    count,
    visitors,
    visitorsExact,
    affected: { contacts, companies, visitors, notInCrm },
    firstSeen,
    lastSeen,
    firstRelease,
    lastRelease,
    lastEventId,
    regressions,
    regressedAt,
    statusChangedAt,
    statusChangedBy,
    fingerprint,
    factoryId,
  };
}

/** A status change that found its issue: the issue after it, and the status it had. */
export interface StatusChange {
  issue: Issue;
  previous: IssueStatus;
}

/**
 * What the control room needs of issues: read them and change their
 * status. Past their expiry, issues and events are gone for every call, even
 * before DynamoDB's time to live removes them.
 */
/** The issues, and who they affect (./affected.ts). */
export interface IssueStore extends AffectedReader, AffectedEraser {
  /** The factory's issues, most recently seen first (byLastSeen), at most `limit`, after `after` (a last seen and an id); of one status, or of all. */
  listIssues(factoryId: string, query: { status?: IssueStatus; limit: number; nowMs: number; after?: ListPosition }): Promise<Issue[]>;
  getIssue(factoryId: string, issueId: string, nowMs: number): Promise<Issue | undefined>;
  /** The issue's latest events, newest first. */
  issueEvents(factoryId: string, issueId: string, limit: number, nowMs: number): Promise<EventView[]>;
  /** Sets the status if the issue exists (one conditional write); undefined when it does not. */
  setIssueStatus(factoryId: string, issueId: string, change: { status: IssueStatus; at: string; by: string; nowMs: number }): Promise<StatusChange | undefined>;
  filteredCounts(factoryId: string): Promise<FilteredCounts>;
  setAsideCounts(factoryId: string): Promise<SetAsideCounts>;
  /**
   * The issue each of these keys is tied to (docs/report-issues.md#issue-ids): fingerprint hashes, and issue ids an
   * event was named with but counted elsewhere (the tally's id aliases). Keys tied to nothing are left out.
   */
  issuesOfHashes(factoryId: string, keys: readonly string[]): Promise<Map<string, string>>;
}
