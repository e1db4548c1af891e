import { PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { StorageUnavailableError } from '../../../kernel/errors';
import { PERIOD_NAMES, staleKeys } from '../../../ingest/issues/buckets';
import { movesOf } from '../../../ingest/issues/apply-delta';
import { epochSeconds, filteredDeltas, issueDeltas, type FilteredDelta, type IssueDelta } from '../../../ingest/issues/deltas';
import type { FilteredEvent, IssueEvent, PageBatch, Sequence, SequencedEvent, TallyStore } from '../../../ingest/tally/ports';
import { isConditionalCheckFailed, itemOfFailure, storageCall } from '../errors';
import { Expression, type Condition } from '../expression';
import { pageItem, paginate } from './feed-pages';
import { addVisitors, canonical, passes, VISITORS_KEPT, type VisitorSample } from '../../../ingest/issues/visitors';
import {
  FILTERED_ATTRIBUTE,
  filteredKey,
  hasPeriodCounts,
  issueFeedOf,
  issueKey,
  MARKS_ATTRIBUTE,
  VISITOR_LEVEL_ATTRIBUTE,
  VISITORS_ATTRIBUTE,
} from './issue-items';
import { DynamoIssueAliases } from './issue-aliases';

type Item = Record<string, unknown>;

/**
 * The tally's writes (docs/report-issues.md#exact-counts). Each issue item
 * (and each factory's filtered item) keeps, in its `marks` map, per stream
 * shard the last record it counted and when: "<sequence>@<epoch seconds>".
 * A write counts only records after its shard's mark and moves the mark in
 * the same conditional UpdateItem, so a batch delivered again, cut
 * elsewhere, or tallied by two consumers at once counts every event once.
 * When the condition fails, the item returned with the failure says what to
 * do: drop what its mark says is counted, and write for the state it is in
 * (new, resolved, expired, or written before it had marks).
 *
 * No transaction: an issue item is written once per batch per stream
 * shard, by plain conditional writes, which never conflict.
 */

/** Width sequences are padded to: DynamoDB's are decimal strings of 21 to 40 digits, increasing within a shard. */
const SEQUENCE_WIDTH = 40;
export const padSequence = (sequence: string): Sequence => sequence.padStart(SEQUENCE_WIDTH, '0');
const markOf = (sequence: Sequence, nowMs: number): string => `${sequence}@${Math.floor(nowMs / 1000)}`;
const markedSequence = (mark: unknown): Sequence | undefined => (typeof mark === 'string' ? mark.slice(0, SEQUENCE_WIDTH) : undefined);
/** A mark is kept one day and an hour: the stream keeps a record 24 hours, so no record older than that can come again. */
const MARK_KEEP_SECONDS = 25 * 3600;

/** Rounds at most per item and batch: each refused round learns a state or drops counted records. */
const MAX_ROUNDS = 8;
/** What a round answers when the batch is written. */
const DONE = Symbol('done');

type IssueState = 'live' | 'new' | 'resolved' | 'expired' | 'unmarked';

function stateOf(item: Item | undefined, nowSeconds: number): IssueState {
  if (!item) return 'new';
  if (typeof item.expiresAt === 'number' && item.expiresAt <= nowSeconds) return 'expired';
  if (!item[MARKS_ATTRIBUTE] || !hasPeriodCounts(item)) return 'unmarked';
  return item.status === 'resolved' ? 'resolved' : 'live';
}

/** What a container last saw of an issue: the first guess of its next write. */
interface IssueGuess {
  state: IssueState;
  seen?: { lastSeen: string; lastEventId: string; firstSeen: string; firstEventId?: string };
  /** Its visitor sample as stored (level and set, not made canonical): what a write that raises the level replaces. */
  visitors?: VisitorSample;
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
    let lastSeenAt = '';
    await this.inRounds<IssueEvent, IssueGuess>('UpdateItem (issue tally)', shardKey, events, this.guesses.get(key) ?? { state: 'live' }, {
      write: async (pending, guess) => {
        const delta = issueDeltas(pending)[0] as IssueDelta;
        lastSeenAt = delta.lastSeenAt;
        if (guess.state === 'unmarked') {
          // Written before marks (or counts per period) existed: given empty ones once, then counted as it then is.
          await this.addMarks(key);
          return { ...guess, state: 'live' };
        }
        const written = await this.writeIssue(key, shardKey, guess, delta, pending);
        this.remember(
          key,
          written
            ? guessOf(written)
            : {
                state: 'live',
                seen: { lastSeen: delta.lastSeenAt, lastEventId: delta.lastEventId, firstSeen: delta.firstSeenAt, firstEventId: delta.firstEventId },
              },
        );
        if (written) await this.prune(key, written);
        return DONE;
      },
      learn: (old) => {
        const guess = { ...guessOf(old), state: stateOf(old, epochSeconds(lastSeenAt)) };
        this.remember(key, guess);
        return guess;
      },
    });
  }

  async addFiltered(shardKey: string, events: readonly FilteredEvent[]): Promise<void> {
    const first = events[0];
    if (!first) return;
    const key = filteredKey(first.event.factoryId);
    await this.inRounds<FilteredEvent, 'live' | 'new' | 'unmarked'>('UpdateItem (filtered tally)', shardKey, events, 'live', {
      write: async (pending, state) => {
        const delta = filteredDeltas(pending)[0] as FilteredDelta;
        const mark = markOf((pending[pending.length - 1] as FilteredEvent).seq, this.now());
        if (state === 'unmarked') {
          await this.addMarks(key, [MARKS_ATTRIBUTE]);
          return 'live';
        }
        if (state === 'new') {
          const counts = Object.fromEntries(
            Object.entries(delta.counts).map(([reason, n]) => [FILTERED_ATTRIBUTE[reason as keyof typeof FILTERED_ATTRIBUTE], n]),
          );
          await this.put(
            { pk: key, factoryId: delta.factoryId, ...counts, lastSeen: delta.lastSeenAt, expiresAt: delta.expiresAt, [MARKS_ATTRIBUTE]: { [shardKey]: mark } },
            'PutItem (filtered tally)',
          );
          return DONE;
        }
        const update = new Expression().set('factoryId', delta.factoryId).set('lastSeen', delta.lastSeenAt).set('expiresAt', delta.expiresAt);
        for (const [reason, n] of Object.entries(delta.counts)) update.add(FILTERED_ATTRIBUTE[reason as keyof typeof FILTERED_ATTRIBUTE], n);
        update.set([MARKS_ATTRIBUTE, shardKey], mark).when(update.exists(MARKS_ATTRIBUTE), notCountedYet(update, shardKey, (pending[0] as FilteredEvent).seq));
        await this.update(key, update, 'UpdateItem (filtered tally)');
        return DONE;
      },
      learn: (old) => (!old ? 'new' : old[MARKS_ATTRIBUTE] ? 'live' : 'unmarked'),
    });
  }

  /**
   * The rounds of one item's conditional writes, written once for the issue
   * and the filtered item: each round writes the records still uncounted for
   * the state the item is believed to be in, and either is done or moves to
   * the state it made; a refused condition returns the item, whose mark drops
   * what it counted already and whose state the next round writes for.
   */
  private async inRounds<T extends SequencedEvent, S>(
    operation: string,
    shardKey: string,
    events: readonly T[],
    first: S,
    steps: { write: (pending: T[], state: S) => Promise<S | typeof DONE>; learn: (old: Item | undefined) => S },
  ): Promise<void> {
    let pending = [...events];
    let state = first;
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      if (pending.length === 0) return;
      try {
        const next = await steps.write(pending, state);
        if (next === DONE) return;
        state = next;
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
        const old = itemOfFailure<Item>(error);
        pending = afterMark(pending, old, shardKey);
        state = steps.learn(old);
      }
    }
    throw new StorageUnavailableError(operation, new Error(`the item kept changing under ${MAX_ROUNDS} attempts`));
  }

  /** The write of one issue for the state it is believed to be in; the item after it when the write returns it. */
  private async writeIssue(key: string, shardKey: string, guess: IssueGuess, delta: IssueDelta, pending: readonly IssueEvent[]): Promise<Item | undefined> {
    const { state } = guess;
    const firstSeq = (pending[0] as IssueEvent).seq;
    const mark = markOf((pending[pending.length - 1] as IssueEvent).seq, this.now());
    const nowSeconds = epochSeconds(delta.lastSeenAt);
    if (state === 'new' || state === 'expired') {
      const { issueId: _issueId, count, factoryId, fingerprint, title, firstRelease, lastRelease, firstEventId, lastEventId, expiresAt, counts } = delta;
      const item: Item = {
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
      const guard = new Expression();
      // New: none there. Expired (past its time to live, not yet removed): replaced by a new open issue.
      guard.when(state === 'new' ? guard.notExists('pk') : guard.is('expiresAt', '<=', nowSeconds));
      await this.put(item, 'PutItem (new issue)', guard);
      return undefined;
    }
    const update = new Expression();
    update.add('count', delta.count).set([MARKS_ATTRIBUTE, shardKey], mark);
    for (const period of PERIOD_NAMES) for (const [bucket, n] of Object.entries(delta.counts[period])) update.add([period, bucket], n);
    // Last and first seen move only with later and earlier events (apply-delta.ts, movesOf): the guess is written into the condition.
    const { movesLast, movesFirst } = guess.seen ? movesOf(guess.seen, delta) : { movesLast: true, movesFirst: false };
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
    const live = update.is('expiresAt', '>', nowSeconds);
    const marked = update.exists(MARKS_ATTRIBUTE);
    const visitors = addToSample(update, guess.visitors, delta.visitors);
    if (state === 'resolved') {
      // Counted and open again, the regression recorded, in one write: only one batch can find it resolved.
      update.set('status', 'open').set('feed', issueFeedOf(delta.factoryId, 'open')).set('regressedAt', delta.firstSeenAt).add('regressions', 1);
      update.when(marked, update.is('status', '=', 'resolved'), live, ...seen, ...visitors, notCountedYet(update, shardKey, firstSeq));
    } else {
      update.when(marked, update.is('status', '<>', 'resolved'), live, ...seen, ...visitors, notCountedYet(update, shardKey, firstSeq));
    }
    return this.update(key, update, 'UpdateItem (issue tally)');
  }

  /** An item written before marks (or counts per period) existed gets empty ones, once; other maps are left as they are. */
  private async addMarks(key: string, maps: readonly string[] = [MARKS_ATTRIBUTE, ...PERIOD_NAMES]): Promise<void> {
    const update = new Expression();
    for (const map of maps) update.setOnce(map, {});
    update.when(update.exists('pk'));
    await this.update(key, update, 'UpdateItem (add marks)');
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
      for (const [shard, mark] of Object.entries(marks)) {
        const at = Number(String(mark).split('@')[1]);
        if (Number.isFinite(at) && at < nowMs / 1000 - MARK_KEEP_SECONDS) {
          update.remove([MARKS_ATTRIBUTE, shard]);
          stale += 1;
        }
      }
    }
    if (stale === 0) return;
    update.when(update.exists('pk'));
    try {
      await this.update(key, update, 'UpdateItem (prune issue)');
    } catch (error) {
      // Gone since (expired, removed): nothing to prune. Anything else: the next batch prunes.
      if (!isConditionalCheckFailed(error)) return;
    }
  }

  private async update(key: string, update: Expression, operation: string): Promise<Item | undefined> {
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
    return result.Attributes;
  }

  private async put(item: Item, operation: string, guard?: Expression): Promise<void> {
    const condition = guard ?? new Expression();
    if (!guard) condition.when(condition.notExists('pk'));
    await storageCall(operation, () =>
      this.doc.send(new PutCommand({ TableName: this.tableName, Item: item, ...condition.forCondition(), ReturnValuesOnConditionCheckFailure: 'ALL_OLD' })),
    );
  }

  private remember(key: string, guess: IssueGuess): void {
    if (this.guesses.size > 10_000) this.guesses.clear();
    this.guesses.set(key, guess);
  }
}

/** What an item shows of the state and the times the next write's shape depends on. */
function guessOf(item: Item | undefined): IssueGuess {
  if (!item) return { state: 'new' };
  const { lastSeen, lastEventId, firstSeen, firstEventId } = item;
  const seen =
    typeof lastSeen === 'string' && typeof lastEventId === 'string' && typeof firstSeen === 'string'
      ? { lastSeen, lastEventId, firstSeen, ...(typeof firstEventId === 'string' ? { firstEventId } : {}) }
      : undefined;
  return { state: item.status === 'resolved' ? 'resolved' : 'live', ...(seen ? { seen } : {}), visitors: storedSample(item) };
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
function notCountedYet(expression: Expression, shardKey: string, firstSeq: Sequence): Condition {
  return expression.or(expression.notExists([MARKS_ATTRIBUTE, shardKey]), expression.is([MARKS_ATTRIBUTE, shardKey], '<', firstSeq));
}

/** The records after the shard's mark on the item (all of them when it has none). */
function afterMark<T extends SequencedEvent>(events: readonly T[], item: Item | undefined, shardKey: string): T[] {
  const marks = item?.[MARKS_ATTRIBUTE];
  const marked = marks && typeof marks === 'object' ? markedSequence((marks as Item)[shardKey]) : undefined;
  return marked === undefined ? [...events] : events.filter((event) => event.seq > marked);
}

/** Waits for every write; throws the first failure once all have settled. */
async function settleAll(writes: Promise<unknown>[]): Promise<void> {
  const settled = await Promise.allSettled(writes);
  const failed = settled.find((write): write is PromiseRejectedResult => write.status === 'rejected');
  if (failed) throw failed.reason;
}
