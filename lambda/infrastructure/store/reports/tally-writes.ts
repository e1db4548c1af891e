import { PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { PERIOD_NAMES, staleKeys } from '../../../ingest/issues/buckets';
import { movesOf } from '../../../ingest/issues/apply-delta';
import { epochSeconds, filteredDeltas, issueDeltas, type FilteredDelta, type IssueDelta } from '../../../ingest/issues/deltas';
import { itemStateOf, type ItemState } from '../../../ingest/issues/lifecycle';
import { countExactlyOnce, markedSequence, markOf, staleMarks, type FoundItem, type Round, type WriteOutcome } from '../../../ingest/tally/exactly-once';
import type { FilteredEvent, IssueEvent, PageBatch, SequencedEvent, SetAsideRecord, TallyStore } from '../../../ingest/tally/ports';
import { isConditionalCheckFailed, itemOfFailure, storageCall } from '../errors';
import { Expression, type Condition } from '../expression';
import { pageItem, paginate } from './feed-pages';
import { addVisitors, canonical, passes, VISITORS_KEPT, type VisitorSample } from '../../../ingest/issues/visitors';
import {
  counterKinds,
  factsOf,
  FILTERED_ATTRIBUTE,
  filteredKey,
  ISSUE_ITEM,
  issueFeedOf,
  issueKey,
  lastSetAsideAttribute,
  MARKS_ATTRIBUTE,
  SET_ASIDE_ATTRIBUTE,
  setAsideKey,
  stateCondition,
  VISITOR_LEVEL_ATTRIBUTE,
  VISITORS_ATTRIBUTE,
  type ItemKind,
} from './issue-items';
import { DynamoIssueAliases } from './issue-aliases';

type Item = Record<string, unknown>;

/**
 * The tally's writes (docs/report-issues.md#exact-counts): the conditional
 * writes that the exactly-once protocol (lambda/ingest/tally/exactly-once.ts)
 * drives, one per row of the decision table (lambda/ingest/issues/lifecycle.ts):
 *   open   a conditional PutItem of a new item (none there, or the issue expired);
 *   mark   an UpdateItem giving an item of the design before its empty marks and counts per period;
 *   count  an UpdateItem adding the records after the shard's mark and moving the mark.
 * Each is conditional on the state it was written for (issue-items.ts, stateCondition) and, when it counts, on the
 * shard's mark being before its first record; a refused one returns the item (ALL_OLD), from which the protocol
 * learns the state and the mark. Nothing here decides what to write for which state, or what to do after a refusal.
 *
 * No transaction: an issue item is written once per batch per stream
 * shard, by plain conditional writes, which never conflict.
 */

/** An issue item as the tally's writes find it: its state's facts and mark, and what the next count write's shape depends on. */
interface IssueFound extends FoundItem {
  seen?: { lastSeen: string; lastEventId: string; firstSeen: string; firstEventId?: string };
  /** Its visitor sample as stored (level and set, not made canonical): what a write that raises the level replaces. */
  visitors?: VisitorSample;
}

/** What a container last found an issue to be: the first guess of its next write. */
interface IssueGuess {
  state: ItemState;
  found?: IssueFound;
}

/** A write's outcome, with the item after it when it landed and the store returned it (ALL_NEW): what the prune after a count reads. */
type Written = WriteOutcome<IssueFound> & { item?: Item };

/** What one write to a counter item adds (numbers) and sets (values), beside its mark. */
interface CounterDelta {
  add: Record<string, number>;
  set: Item;
}

export class DynamoTallyStore implements TallyStore {
  /** What this container last found each issue to be. */
  private readonly guesses = new Map<string, IssueGuess>();

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** The issues' aliases (issue-aliases.ts): which issue an event is counted into; made on first use. */
  private aliasStore?: DynamoIssueAliases;

  private get aliases(): DynamoIssueAliases {
    this.aliasStore ??= new DynamoIssueAliases(this.doc, this.tableName);
    return this.aliasStore;
  }

  issuesOfHashes(factoryId: string, hashes: readonly string[]): Promise<Map<string, string>> {
    return this.aliases.issuesOfHashes(factoryId, hashes);
  }

  tieHashes(factoryId: string, ties: ReadonlyMap<string, string>): Promise<Map<string, string>> {
    return this.aliases.tieHashes(factoryId, ties);
  }

  async writePages(shardKey: string, pages: readonly PageBatch[]): Promise<void> {
    const items = pages.flatMap((page) => {
      const owner = page.issueId === undefined ? { factoryId: page.factoryId } : { factoryId: page.factoryId, issueId: page.issueId };
      const firstSeq = page.events[0]?.seq ?? '';
      const refs = page.events.map(({ event }) => ({ receivedAt: event.receivedAt, eventId: event.eventId, type: event.type ?? 'error' }));
      const expiresAt = Math.max(...page.events.map(({ event }) => event.expiresAt));
      return paginate(refs).map((part, index) => ({ ...pageItem(owner, { shardKey, firstSeq, part: index }, part, expiresAt), factoryId: page.factoryId }));
    });
    await settleAll(items.map((Item) => storageCall('PutItem (feed page)', () => this.doc.send(new PutCommand({ TableName: this.tableName, Item })))));
  }

  async addToIssue(shardKey: string, events: readonly IssueEvent[]): Promise<void> {
    const first = events[0];
    if (!first) return;
    const key = issueKey(first.event.factoryId, first.issue.issueId);
    const guess = this.guesses.get(key) ?? { state: 'active' };
    const delta = (pending: readonly IssueEvent[]) => issueDeltas(pending)[0] as IssueDelta;
    const nowSeconds = (pending: readonly IssueEvent[]) => epochSeconds(delta(pending).lastSeenAt);
    let counted: Item | undefined;
    await countExactlyOnce<IssueEvent, IssueFound>(events, {
      operation: 'UpdateItem (issue tally)',
      believed: guess.state,
      ...(guess.found ? { found: guess.found } : {}),
      nowSeconds,
      write: async (round) => {
        const outcome = await this.writeIssue(key, shardKey, round, delta(round.pending));
        if (outcome.landed && round.decision.write === 'count') counted = outcome.item;
        // The next batch's first guess: the state this write left (or found) the item in, and what it showed.
        const seen = outcome.landed ? (outcome.after ?? round.found) : outcome.found;
        const state = outcome.landed && round.decision.next !== 'done' ? round.decision.next : itemStateOf(seen, nowSeconds(round.pending));
        this.remember(key, { state, ...(seen ? { found: seen } : {}) });
        return outcome;
      },
    });
    if (counted) await this.prune(key, counted);
  }

  async addFiltered(shardKey: string, events: readonly FilteredEvent[]): Promise<void> {
    const first = events[0];
    if (!first) return;
    await this.countInto(counterKinds.filtered, filteredKey(first.event.factoryId), shardKey, events, (pending) => {
      const delta = filteredDeltas(pending)[0] as FilteredDelta;
      const add = Object.fromEntries(Object.entries(delta.counts).map(([reason, n]) => [FILTERED_ATTRIBUTE[reason as keyof typeof FILTERED_ATTRIBUTE], n]));
      return { add, set: { factoryId: delta.factoryId, lastSeen: delta.lastSeenAt, expiresAt: delta.expiresAt } };
    });
  }

  async addSetAside(shardKey: string, records: readonly SetAsideRecord[]): Promise<void> {
    const first = records[0];
    if (!first) return;
    await this.countInto(counterKinds.setAside, setAsideKey(first.factoryId), shardKey, records, (pending) => {
      const add: Record<string, number> = {};
      for (const { reason } of pending) add[SET_ASIDE_ATTRIBUTE[reason]] = (add[SET_ASIDE_ATTRIBUTE[reason]] ?? 0) + 1;
      const last = pending[pending.length - 1] as SetAsideRecord;
      return { add, set: { factoryId: first.factoryId, ...lastSetAsideAttribute(last, new Date(this.now()).toISOString()) } };
    });
  }

  /** A factory's counter item (filtered events, records set aside), counted into by the same protocol: absent, unmarked or active. */
  private async countInto<E extends SequencedEvent | SetAsideRecord>(
    kind: ItemKind,
    key: string,
    shardKey: string,
    records: readonly E[],
    deltaOf: (pending: readonly E[]) => CounterDelta,
  ): Promise<void> {
    await countExactlyOnce<E & SequencedEvent, FoundItem>(records as readonly (E & SequencedEvent)[], {
      operation: `UpdateItem (${kind.name} tally)`,
      believed: 'active',
      // A counter's state does not depend on the time: it is counted on until DynamoDB removes it.
      nowSeconds: () => 0,
      write: async ({ state, decision, pending }) => {
        const mark = markOf((pending[pending.length - 1] as E).seq, this.now());
        const { add, set } = deltaOf(pending);
        const guard = new Expression();
        if (decision.write === 'open') {
          guard.when(...stateCondition(guard, kind, state, 0));
          return this.put({ pk: key, ...set, ...add, [MARKS_ATTRIBUTE]: { [shardKey]: mark } }, `PutItem (${kind.name} tally)`, guard, kind, shardKey);
        }
        if (decision.write === 'mark') return this.addMarks(key, kind, shardKey, 0);
        for (const [name, value] of Object.entries(set)) guard.set(name, value);
        for (const [name, n] of Object.entries(add)) guard.add(name, n);
        guard.set([MARKS_ATTRIBUTE, shardKey], mark).when(...stateCondition(guard, kind, state, 0), notCountedYet(guard, shardKey, (pending[0] as E).seq));
        return this.update(key, guard, `UpdateItem (${kind.name} tally)`, kind, shardKey);
      },
    });
  }

  /** The round's write to an issue item, for the state it is believed to be in. */
  private async writeIssue(key: string, shardKey: string, round: Round<IssueEvent, IssueFound>, delta: IssueDelta): Promise<Written> {
    const { state, decision, pending, found } = round;
    const nowSeconds = epochSeconds(delta.lastSeenAt);
    const mark = markOf((pending[pending.length - 1] as IssueEvent).seq, this.now());
    if (decision.write === 'mark') return this.addMarks(key, ISSUE_ITEM, shardKey, nowSeconds);
    if (decision.write === 'open') {
      const guard = new Expression();
      guard.when(...stateCondition(guard, ISSUE_ITEM, state, nowSeconds));
      const outcome = await this.put(newIssueItem(key, delta, shardKey, mark), 'PutItem (new issue)', guard, ISSUE_ITEM, shardKey);
      if (!outcome.landed) return outcome;
      // What the item now is, without reading it: the next batch's write is shaped for it.
      const seen = { lastSeen: delta.lastSeenAt, lastEventId: delta.lastEventId, firstSeen: delta.firstSeenAt, firstEventId: delta.firstEventId };
      return { landed: true, after: { marked: true, status: 'open', expiresAt: delta.expiresAt, mark: (pending[pending.length - 1] as IssueEvent).seq, seen } };
    }
    const update = new Expression();
    update.add('count', delta.count).set([MARKS_ATTRIBUTE, shardKey], mark);
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
    if (decision.regression)
      update.set('status', 'open').set('feed', issueFeedOf(delta.factoryId, 'open')).set('regressedAt', delta.firstSeenAt).add('regressions', 1);
    update.when(
      ...stateCondition(update, ISSUE_ITEM, state, nowSeconds),
      ...seen,
      ...visitors,
      notCountedYet(update, shardKey, (pending[0] as IssueEvent).seq),
    );
    return this.update(key, update, 'UpdateItem (issue tally)', ISSUE_ITEM, shardKey);
  }

  /** An item written before marks (or counts per period) existed gets empty ones, once; other maps are left as they are. */
  private async addMarks(key: string, kind: ItemKind, shardKey: string, nowSeconds: number): Promise<Written> {
    const update = new Expression();
    for (const map of kind.marked) update.setOnce(map, {});
    update.when(...stateCondition(update, kind, 'unmarked', nowSeconds));
    const outcome = await this.update(key, update, 'UpdateItem (add marks)', kind, shardKey);
    // The item after is not the guess the next round writes for (its times and visitors are): keep what was seen.
    return outcome.landed ? { landed: true } : outcome;
  }

  /** Drops the periods and marks too old to keep (a second write, once in a while: at most once per 5 minutes per issue). */
  private async prune(key: string, item: Item): Promise<void> {
    const nowMs = this.now();
    const update = new Expression();
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
    if (stale === 0) return;
    update.when(update.exists('pk'));
    try {
      await this.update(key, update, 'UpdateItem (prune issue)', ISSUE_ITEM, '');
    } catch {
      // Gone since (expired, removed), or anything else: the next batch prunes.
    }
  }

  /** A conditional UpdateItem: landed with the item after it, or refused with the item before. */
  private async update(key: string, update: Expression, operation: string, kind: ItemKind, shardKey: string): Promise<Written> {
    try {
      const result = await storageCall(operation, () =>
        this.doc.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: { pk: key },
            ...update.forUpdate(),
            ReturnValues: 'ALL_NEW',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        ),
      );
      return { landed: true, ...(result.Attributes ? { after: foundOf(result.Attributes, kind, shardKey), item: result.Attributes } : {}) };
    } catch (error) {
      return refusal(error, kind, shardKey);
    }
  }

  /** A conditional PutItem: landed, or refused with the item that was there. */
  private async put(item: Item, operation: string, guard: Expression, kind: ItemKind, shardKey: string): Promise<Written> {
    try {
      await storageCall(operation, () =>
        this.doc.send(new PutCommand({ TableName: this.tableName, Item: item, ...guard.forCondition(), ReturnValuesOnConditionCheckFailure: 'ALL_OLD' })),
      );
      return { landed: true };
    } catch (error) {
      return refusal(error, kind, shardKey);
    }
  }

  private remember(key: string, guess: IssueGuess): void {
    if (this.guesses.size > 10_000) this.guesses.clear();
    this.guesses.set(key, guess);
  }
}

/** A refused condition as the item it returned (none: no item); any other failure is thrown on. */
function refusal(error: unknown, kind: ItemKind, shardKey: string): Written {
  if (!isConditionalCheckFailed(error)) throw error;
  const old = itemOfFailure<Item>(error);
  return { landed: false, ...(old ? { found: foundOf(old, kind, shardKey) } : {}) };
}

/** An item as the protocol reads it: its state's facts (issue-items.ts says which maps are the bookkeeping), this shard's mark, and for an issue what its next write's shape depends on. */
function foundOf(item: Item, kind: ItemKind, shardKey: string): IssueFound {
  const marks = item[MARKS_ATTRIBUTE];
  const mark = marks && typeof marks === 'object' ? markedSequence((marks as Item)[shardKey]) : undefined;
  const facts = factsOf(kind, item);
  if (kind !== ISSUE_ITEM) return { ...facts, ...(mark === undefined ? {} : { mark }) };
  const { lastSeen, lastEventId, firstSeen, firstEventId } = item;
  const seen =
    typeof lastSeen === 'string' && typeof lastEventId === 'string' && typeof firstSeen === 'string'
      ? { lastSeen, lastEventId, firstSeen, ...(typeof firstEventId === 'string' ? { firstEventId } : {}) }
      : undefined;
  return { ...facts, ...(mark === undefined ? {} : { mark }), ...(seen ? { seen } : {}), visitors: storedSample(item) };
}

/** A new issue item holding the delta's events only, marked for this shard. */
function newIssueItem(key: string, delta: IssueDelta, shardKey: string, mark: string): Item {
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
 *     by every reader (../issues/visitors.ts, canonical) and dropped by the
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

/** The shard's mark is before this record: it has not been counted. */
function notCountedYet(expression: Expression, shardKey: string, firstSeq: string): Condition {
  return expression.or(expression.notExists([MARKS_ATTRIBUTE, shardKey]), expression.is([MARKS_ATTRIBUTE, shardKey], '<', firstSeq));
}

/** Waits for every write; throws the first failure once all have settled. */
async function settleAll(writes: Promise<unknown>[]): Promise<void> {
  const settled = await Promise.allSettled(writes);
  const failed = settled.find((write): write is PromiseRejectedResult => write.status === 'rejected');
  if (failed) throw failed.reason;
}
