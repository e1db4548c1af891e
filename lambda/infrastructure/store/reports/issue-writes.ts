import { PERIOD_NAMES, staleKeys } from '../../../ingest/issues/buckets';
import { movesOf } from '../../../ingest/issues/apply-delta';
import type { IssueDelta } from '../../../ingest/issues/deltas';
import { markedSequence, staleMarks, type FoundItem } from '../../../ingest/tally/exactly-once';
import type { Condition, Expression } from '../expression';
import { newItemAffected, writeAffected } from './issue-affected';
import { factsOf, ISSUE_ITEM, issueFeedOf, MARKS_ATTRIBUTE, type ItemKind } from './issue-items';
import { newItemVisitors, storedVisitorsOf, writeVisitors, type StoredVisitors } from './visitor-items';

type Item = Record<string, unknown>;

/**
 * What the tally's writes to an issue item say (docs/report-issues.md#exact-counts): the new item a batch opens,
 * the count it adds with the conditions that keep first and last seen, and the visitors right whatever order
 * shards are counted in, and the prune of what is too old to keep. tally-writes.ts sends them; which one, when, is
 * the protocol's (lambda/ingest/tally/exactly-once.ts).
 */

/** An item as the protocol reads it: its state's facts and this shard's mark; for an issue, what its next count's shape depends on. */
export interface IssueFound extends FoundItem {
  seen?: { lastSeen: string; lastEventId: string; firstSeen: string; firstEventId?: string };
  /** Its visitors as stored (visitor-items.ts): what a write that replaces the registers is conditional on. */
  visitors?: StoredVisitors;
}

/** An item of this kind as a write found it (the facts issue-items.ts reads, this shard's mark; an issue's times and visitors). */
export function foundOf(item: Item, kind: ItemKind, shardKey: string): IssueFound {
  const marks = item[MARKS_ATTRIBUTE];
  const mark = marks && typeof marks === 'object' ? markedSequence((marks as Item)[shardKey]) : undefined;
  const facts = { ...factsOf(kind, item), ...(mark === undefined ? {} : { mark }) };
  if (kind !== ISSUE_ITEM) return facts;
  const { lastSeen, lastEventId, firstSeen, firstEventId } = item;
  const seen =
    typeof lastSeen === 'string' && typeof lastEventId === 'string' && typeof firstSeen === 'string'
      ? { lastSeen, lastEventId, firstSeen, ...(typeof firstEventId === 'string' ? { firstEventId } : {}) }
      : undefined;
  return { ...facts, ...(seen ? { seen } : {}), visitors: storedVisitorsOf(item) };
}

/** What a new issue item is, without reading it back: the next batch's count is shaped for it. */
export const openedFound = (delta: IssueDelta, lastSeq: string): IssueFound => ({
  marked: true,
  status: 'open',
  expiresAt: delta.expiresAt,
  mark: lastSeq,
  seen: { lastSeen: delta.lastSeenAt, lastEventId: delta.lastEventId, firstSeen: delta.firstSeenAt, firstEventId: delta.firstEventId },
  visitors: storedVisitorsOf(newItemVisitors(delta.visitors)),
});

/** A new issue item holding the delta's events only, marked for this shard. */
export function newIssueItem(key: string, delta: IssueDelta, shardKey: string, mark: string): Item {
  const { count, factoryId, fingerprint, title, firstRelease, lastRelease, firstEventId, lastEventId, expiresAt, counts } = delta;
  return {
    pk: key,
    feed: issueFeedOf(factoryId, 'open'),
    receivedAt: delta.lastSeenAt,
    factoryId,
    fingerprint,
    title,
    count,
    firstSeen: delta.firstSeenAt,
    lastSeen: delta.lastSeenAt,
    ...(firstRelease === undefined ? {} : { firstRelease }),
    ...(lastRelease === undefined ? {} : { lastRelease }),
    firstEventId,
    lastEventId,
    status: 'open',
    expiresAt,
    ...counts,
    ...newItemVisitors(delta.visitors),
    ...newItemAffected(delta.affected),
    [MARKS_ATTRIBUTE]: { [shardKey]: mark },
  };
}

/**
 * The count of a delta added to an issue found as `found` (or guessed), reopening it when it was resolved: its
 * count, counts per period, first and last seen, releases, visitors and people set on `update`; answers the conditions that
 * hold the guess the write was shaped by (the caller adds the state's and the mark's).
 */
export function countIssue(update: Expression, delta: IssueDelta, found: IssueFound | undefined, regression: boolean): Condition[] {
  update.add('count', delta.count);
  for (const period of PERIOD_NAMES) for (const [bucket, n] of Object.entries(delta.counts[period])) update.add([period, bucket], n);
  // Last and first seen move only with later and earlier events (apply-delta.ts, movesOf): the guess is written into the condition.
  const { movesLast, movesFirst } = found?.seen ? movesOf(found.seen, delta) : { movesLast: true, movesFirst: false };
  const last = update.value(delta.lastSeenAt);
  const lastId = update.value(delta.lastEventId);
  const first = update.value(delta.firstSeenAt);
  const firstId = update.value(delta.firstEventId);
  if (movesLast) {
    update.set('lastSeen', last).set('receivedAt', last).set('lastEventId', lastId).set('expiresAt', delta.expiresAt);
    if (delta.lastRelease !== undefined) update.set('lastRelease', delta.lastRelease);
  } else if (delta.lastRelease !== undefined) update.setOnce('lastRelease', delta.lastRelease);
  if (movesFirst) {
    update.set('firstSeen', first).set('firstEventId', firstId).set('title', delta.title);
    if (delta.firstRelease !== undefined) update.set('firstRelease', delta.firstRelease);
  } else if (delta.firstRelease !== undefined) update.setOnce('firstRelease', delta.firstRelease);
  // (time, eventId) pairs compared as movesOf compares them; an issue kept before firstEventId was moves back on time only.
  const seen = [
    movesLast
      ? update.or(update.is('lastSeen', '<', last), update.and(update.is('lastSeen', '=', last), update.is('lastEventId', '<', lastId)))
      : update.or(update.is('lastSeen', '>', last), update.and(update.is('lastSeen', '=', last), update.is('lastEventId', '>=', lastId))),
    movesFirst
      ? update.or(
          update.is('firstSeen', '>', first),
          update.and(update.is('firstSeen', '=', first), update.exists('firstEventId'), update.is('firstEventId', '>', firstId)),
        )
      : update.or(
          update.is('firstSeen', '<', first),
          update.and(update.is('firstSeen', '=', first), update.or(update.notExists('firstEventId'), update.is('firstEventId', '<=', firstId))),
        ),
  ];
  const visitors = writeVisitors(update, found?.visitors, delta.visitors);
  writeAffected(update, delta.affected);
  // Counted and open again, the regression recorded, in one write: only one batch can find it resolved.
  if (regression) update.set('status', 'open').set('feed', issueFeedOf(delta.factoryId, 'open')).set('regressedAt', delta.firstSeenAt).add('regressions', 1);
  return [...seen, ...visitors];
}

/**
 * What is too old to keep on an issue item at `nowMs`, removed by `update` (counts per period, marks of shards that
 * can send nothing again, visitors in a form to tidy): whether there was any.
 */
export function pruneIssue(update: Expression, item: Item, nowMs: number): boolean {
  let stale = 0;
  for (const period of PERIOD_NAMES) {
    const map = item[period];
    if (!map || typeof map !== 'object') continue;
    for (const bucket of staleKeys(period, Object.keys(map), nowMs)) {
      update.remove([period, bucket]);
      stale += 1;
    }
  }
  // Visitors left in a form a write tidies (a set two shards grew past 100 at once, or beside the registers, an older sample): tidied, guarded as every visitor write is.
  const visitors = writeVisitors(update, storedVisitorsOf(item), []);
  if (visitors.length > 0) {
    update.when(...visitors);
    stale += 1;
  }
  const marks = item[MARKS_ATTRIBUTE];
  if (marks && typeof marks === 'object') {
    for (const shard of staleMarks(marks as Item, nowMs)) {
      update.remove([MARKS_ATTRIBUTE, shard]);
      stale += 1;
    }
  }
  return stale > 0;
}
