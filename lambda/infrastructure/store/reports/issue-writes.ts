import { PERIOD_NAMES, staleKeys } from '../../../ingest/issues/buckets';
import { movesOf } from '../../../ingest/issues/apply-delta';
import type { IssueDelta } from '../../../ingest/issues/deltas';
import { markedSequence, staleMarks, type FoundItem } from '../../../ingest/tally/exactly-once';
import { addVisitors, canonical, passes, VISITORS_KEPT, type VisitorSample } from '../../../ingest/issues/visitors';
import type { Condition, Expression } from '../expression';
import { factsOf, ISSUE_ITEM, issueFeedOf, MARKS_ATTRIBUTE, VISITOR_LEVEL_ATTRIBUTE, VISITORS_ATTRIBUTE, type ItemKind } from './issue-items';

type Item = Record<string, unknown>;

/**
 * What the tally's writes to an issue item say (docs/report-issues.md#exact-counts): the new item a batch opens,
 * the count it adds with the conditions that keep first and last seen and the visitor sample right whatever order
 * shards are counted in, and the prune of what is too old to keep. tally-writes.ts sends them; which one, when, is
 * the protocol's (lambda/ingest/tally/exactly-once.ts).
 */

/** An item as the protocol reads it: its state's facts and this shard's mark; for an issue, what its next count's shape depends on. */
export interface IssueFound extends FoundItem {
  seen?: { lastSeen: string; lastEventId: string; firstSeen: string; firstEventId?: string };
  /** Its visitor sample as stored (level and set, not made canonical): what a write that raises the level replaces. */
  visitors?: VisitorSample;
}

/** An item of this kind as a write found it (the facts issue-items.ts reads, this shard's mark; an issue's times and sample). */
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
  return { ...facts, ...(seen ? { seen } : {}), visitors: storedSample(item) };
}

/** What a new issue item is, without reading it back: the next batch's count is shaped for it. */
export const openedFound = (delta: IssueDelta, lastSeq: string): IssueFound => ({
  marked: true,
  status: 'open',
  expiresAt: delta.expiresAt,
  mark: lastSeq,
  seen: { lastSeen: delta.lastSeenAt, lastEventId: delta.lastEventId, firstSeen: delta.firstSeenAt, firstEventId: delta.firstEventId },
  visitors: addVisitors(undefined, delta.visitors),
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
    ...visitorAttributes(addVisitors(undefined, delta.visitors)),
    [MARKS_ATTRIBUTE]: { [shardKey]: mark },
  };
}

/**
 * The count of a delta added to an issue found as `found` (or guessed), reopening it when it was resolved: its
 * count, counts per period, first and last seen, releases and visitors set on `update`; answers the conditions that
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
  const visitors = addToSample(update, found?.visitors, delta.visitors);
  // Counted and open again, the regression recorded, in one write: only one batch can find it resolved.
  if (regression) update.set('status', 'open').set('feed', issueFeedOf(delta.factoryId, 'open')).set('regressedAt', delta.firstSeenAt).add('regressions', 1);
  return [...seen, ...visitors];
}

/**
 * What is too old to keep on an issue item at `nowMs`, removed by `update` (counts per period, marks of shards that
 * can send nothing again, a visitor set past the sample's bound raised a level): whether there was any.
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
  // A visitor set over what the sample keeps (two shards added at once): its level raised, guarded as addToSample does.
  const sample = storedSample(item);
  if (sample.hashes.length > VISITORS_KEPT) {
    const raised = canonical(sample);
    update.set(VISITORS_ATTRIBUTE, new Set(raised.hashes)).set(VISITOR_LEVEL_ATTRIBUTE, raised.level);
    update.when(levelIs(update, sample.level), update.sizeIs(VISITORS_ATTRIBUTE, '=', sample.hashes.length));
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

/** The visitor sample as the item stores it: its level and every hash in its set. */
function storedSample(item: Item): VisitorSample {
  const hashes = item[VISITORS_ATTRIBUTE];
  const level = item[VISITOR_LEVEL_ATTRIBUTE];
  return {
    level: typeof level === 'number' ? level : 0,
    hashes: hashes instanceof Set ? [...(hashes as Set<unknown>)].filter((hash): hash is string => typeof hash === 'string') : [],
  };
}

/** The attributes of a new item's sample: no set when empty (DynamoDB stores no empty set), no level at 0. */
function visitorAttributes(sample: VisitorSample): Item {
  return {
    ...(sample.hashes.length > 0 ? { [VISITORS_ATTRIBUTE]: new Set(sample.hashes) } : {}),
    ...(sample.level > 0 ? { [VISITOR_LEVEL_ATTRIBUTE]: sample.level } : {}),
  };
}

/** The sample's level is `level` (an item without one is at 0). */
function levelIs(expression: Expression, level: number): Condition {
  return level === 0
    ? expression.or(expression.notExists(VISITOR_LEVEL_ATTRIBUTE), expression.is(VISITOR_LEVEL_ATTRIBUTE, '=', 0))
    : expression.is(VISITOR_LEVEL_ATTRIBUTE, '=', level);
}

/**
 * A batch's visitors added to the issue's sample in the count's own write
 * (docs/report-issues.md#visitors-affected), with the conditions that make
 * it right, returned for the write's condition:
 *   - the hashes passing the level this container last saw are added to the
 *     set (ADD: a set union, whatever other shards add at once), with no
 *     condition: a hash that fails a level raised meanwhile is left out
 *     by every reader (lambda/ingest/issues/visitors.ts, canonical) and dropped by the
 *     next raise;
 *   - when that would keep more than VISITORS_KEPT, the set is replaced by
 *     the sample one level (or more) up, on condition that the level and the
 *     set's size are as last seen: at one level the set only grows, so the
 *     same size is the same set.
 * A refused condition returns the item, whose sample the next round starts from.
 */
function addToSample(update: Expression, known: VisitorSample | undefined, hashes: readonly string[]): Condition[] {
  if (hashes.length === 0) return [];
  const level = known?.level ?? 0;
  const have = new Set(known?.hashes ?? []);
  const fresh = hashes.filter((hash) => passes(hash, level) && !have.has(hash));
  if (known && have.size + fresh.length > VISITORS_KEPT) {
    const raised = canonical({ level, hashes: [...have, ...fresh] });
    update.set(VISITORS_ATTRIBUTE, new Set(raised.hashes)).set(VISITOR_LEVEL_ATTRIBUTE, raised.level);
    return [levelIs(update, level), have.size === 0 ? update.notExists(VISITORS_ATTRIBUTE) : update.sizeIs(VISITORS_ATTRIBUTE, '=', have.size)];
  }
  if (fresh.length > 0) update.add(VISITORS_ATTRIBUTE, new Set(fresh));
  return [];
}
