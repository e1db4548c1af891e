import { affectedOf, contactOfEvent, type EventPerson, type IssueAffected } from './affected';
import { countInPeriods, emptyCounts, PERIOD_NAMES, type PeriodCounts } from './buckets';
import type { IssueSeed } from './issue';
import type { FilterReason, StoredEvent } from './stored-event';

/**
 * What a batch of newly stored events adds to their issues and to their
 * factories' filtered counts (docs/report-issues.md): pure, so the tally
 * (lambda/ingest/tally) and the in-memory store apply the very same sums. Every
 * event given here is counted: which events are new is the caller's to say
 * (a stream record appears once per stored event; a redelivered batch is
 * filtered by the store's marks before it gets here).
 */

/**
 * A stored event with the issue it belongs to (the grouping rule's seed) and, when it names a person, how it counts
 * into the issue's people (./affected.ts); or with the reason it belongs to no issue.
 */
export type GroupedEvent = { event: StoredEvent; issue: IssueSeed; person?: EventPerson } | { event: StoredEvent; filtered: FilterReason };

/** What some new events add to one issue. */
export interface IssueDelta extends IssueSeed {
  factoryId: string;
  /** Events added (each stored once, none a duplicate). */
  count: number;
  /** The earliest and the latest receive time among them (ISO 8601 UTC). */
  firstSeenAt: string;
  lastSeenAt: string;
  /** The release of the earliest and of the latest of them that name one (in the same order). */
  firstRelease?: string;
  lastRelease?: string;
  /** The earliest and the latest of them, by receive time then eventId: the ends of the order every store counts in. */
  firstEventId: string;
  lastEventId: string;
  /** Epoch seconds: the issue lives until no event has come for the retention period. */
  expiresAt: number;
  /** The same events per 5 minutes, hour and day (./buckets.ts). */
  counts: PeriodCounts;
  /** Their anonymous visitors' hashes, each once (./visitors.ts): an event naming a person counts among the people instead. */
  visitors: string[];
  /** The people and companies they count into the issue for the first time, and its biggest companies as they know them. */
  affected: IssueAffected;
}

/** Filtered events of one factory, counted apart per reason. */
export interface FilteredDelta {
  factoryId: string;
  counts: Partial<Record<FilterReason, number>>;
  lastSeenAt: string;
  expiresAt: number;
}

const later = (a: string, b: string): string => (a > b ? a : b);
const earlier = (a: string, b: string): string => (a < b ? a : b);

/**
 * By receive time, then eventId: one order of events whatever order they
 * come in (the events of one request share a receive time and reach the
 * stream in any order), so every store picks the same first and last.
 */
const byReceiveTime = <T extends { event: StoredEvent }>(events: readonly T[]): T[] =>
  [...events].sort((a, b) => compareSeen([a.event.receivedAt, a.event.eventId], [b.event.receivedAt, b.event.eventId]));

/** Two (receive time, eventId) pairs in that order. */
export function compareSeen(a: readonly [string, string], b: readonly [string, string]): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  return a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
}

/** One delta per issue, in the order the issues first appear. */
export function issueDeltas(events: readonly GroupedEvent[]): IssueDelta[] {
  const byIssue = new Map<string, IssueDelta>();
  const people = new Map<string, (EventPerson | undefined)[]>();
  for (const item of byReceiveTime(events)) {
    if (!('issue' in item)) continue;
    const { event, issue } = item;
    let delta = byIssue.get(issue.issueId);
    if (!delta) {
      delta = {
        ...issue,
        factoryId: event.factoryId,
        count: 0,
        firstSeenAt: event.receivedAt,
        lastSeenAt: event.receivedAt,
        firstEventId: event.eventId,
        lastEventId: event.eventId,
        expiresAt: event.expiresAt,
        counts: emptyCounts(),
        visitors: [],
        affected: affectedOf([]),
      };
      byIssue.set(issue.issueId, delta);
      people.set(issue.issueId, []);
    }
    people.get(issue.issueId)?.push(item.person);
    delta.count += 1;
    delta.lastEventId = event.eventId;
    delta.firstSeenAt = earlier(delta.firstSeenAt, event.receivedAt);
    delta.lastSeenAt = later(delta.lastSeenAt, event.receivedAt);
    delta.expiresAt = Math.max(delta.expiresAt, event.expiresAt);
    if (event.release !== undefined) {
      delta.firstRelease ??= event.release;
      delta.lastRelease = event.release;
    }
    countInPeriods(delta.counts, Date.parse(event.receivedAt));
    if (event.visitor !== undefined && contactOfEvent(event) === undefined && !delta.visitors.includes(event.visitor)) delta.visitors.push(event.visitor);
  }
  for (const [issueId, delta] of byIssue) delta.affected = affectedOf(people.get(issueId) ?? []);
  return [...byIssue.values()];
}

/** The filtered events per factory, in the order the factories first appear. */
export function filteredDeltas(events: readonly GroupedEvent[]): FilteredDelta[] {
  const byFactory = new Map<string, FilteredDelta>();
  for (const item of events) {
    if (!('filtered' in item)) continue;
    const { event, filtered } = item;
    let delta = byFactory.get(event.factoryId);
    if (!delta) {
      delta = { factoryId: event.factoryId, counts: {}, lastSeenAt: event.receivedAt, expiresAt: event.expiresAt };
      byFactory.set(event.factoryId, delta);
    }
    delta.counts[filtered] = (delta.counts[filtered] ?? 0) + 1;
    delta.lastSeenAt = later(delta.lastSeenAt, event.receivedAt);
    delta.expiresAt = Math.max(delta.expiresAt, event.expiresAt);
  }
  return [...byFactory.values()];
}

/** Two period counts added together. */
export function addCounts(a: Partial<PeriodCounts> | undefined, b: PeriodCounts): PeriodCounts {
  const sum = emptyCounts();
  for (const period of PERIOD_NAMES) {
    for (const [key, n] of Object.entries(a?.[period] ?? {})) sum[period][key] = n;
    for (const [key, n] of Object.entries(b[period])) sum[period][key] = (sum[period][key] ?? 0) + n;
  }
  return sum;
}

/** Epoch seconds of an ISO time: the clock the expiry of an issue is read against. */
export const epochSeconds = (iso: string): number => Math.floor(Date.parse(iso) / 1000);
