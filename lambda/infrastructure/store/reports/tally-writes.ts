import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { epochSeconds, filteredDeltas, issueDeltas, type FilteredDelta, type IssueDelta } from '../../../ingest/issues/deltas';
import { itemStateOf, type ItemState } from '../../../ingest/issues/lifecycle';
import { countExactlyOnce, markOf, type FoundItem, type Round } from '../../../ingest/tally/exactly-once';
import type { StoredEvent } from '../../../ingest/issues/stored-event';
import type {
  FilteredEvent,
  IssueEvent,
  PageBatch,
  PersonEvents,
  PersonPair,
  ReportersNow,
  SequencedEvent,
  SetAsideRecord,
  TallyStore,
} from '../../../ingest/tally/ports';
import { storageCall } from '../errors';
import { Expression } from '../expression';
import { applyDelta, conditionalUpdate, notCountedYet, refusedAs, type CounterDelta, type Written as CountingWritten } from './counting-writes';
import { pageItem, paginate } from './feed-pages';
import {
  counterKinds,
  FILTERED_ATTRIBUTE,
  filteredKey,
  ISSUE_ITEM,
  issueKey,
  lastSetAsideAttribute,
  MARKS_ATTRIBUTE,
  SET_ASIDE_ATTRIBUTE,
  setAsideKey,
  stateCondition,
  type ItemKind,
} from './issue-items';
import { countIssue, foundOf, newIssueItem, openedFound, pruneIssue, type IssueFound } from './issue-writes';
import { DynamoIssueAliases } from './issue-aliases';
import { DynamoAffectedPairs } from './affected-items';

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

/** What a container last found an issue to be: the first guess of its next write. */
interface IssueGuess {
  state: ItemState;
  found?: IssueFound;
}

/** A write's outcome, with the item after it when it landed and the store returned it (ALL_NEW): what the prune after a count reads. */
type Written = CountingWritten<IssueFound>;

export class DynamoTallyStore implements TallyStore {
  /** What this container last found each issue to be. */
  private readonly guesses = new Map<string, IssueGuess>();

  /** The (issue, person) pairs (affected-items.ts). */
  private readonly people: DynamoAffectedPairs;

  /** `contactsTable`: where the tally reads a new person's company (none: nobody is taken for a contact). */
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => number = Date.now,
    contactsTable?: string,
  ) {
    this.people = new DynamoAffectedPairs(doc, { reports: tableName, ...(contactsTable === undefined ? {} : { contacts: contactsTable }) }, now);
  }

  addToPerson(shardKey: string, batch: PersonEvents): Promise<PersonPair> {
    return this.people.add(shardKey, batch);
  }

  reportersNow(events: readonly StoredEvent[]): Promise<ReportersNow> {
    return this.people.reportersNow(events);
  }

  withdrawPerson(batch: PersonEvents, pair: PersonPair, heir?: string): Promise<void> {
    return this.people.withdraw(batch, pair, heir);
  }

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
      const lastSeq = page.events[page.events.length - 1]?.seq ?? '';
      const refs = page.events.map(({ event }) => ({ receivedAt: event.receivedAt, eventId: event.eventId, type: event.type ?? 'error' }));
      const expiresAt = Math.max(...page.events.map(({ event }) => event.expiresAt));
      return paginate(refs).map((part, index) => ({
        ...pageItem(owner, { shardKey, firstSeq, lastSeq, part: index }, part, expiresAt),
        factoryId: page.factoryId,
      }));
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
    await countExactlyOnce<E, FoundItem>(records, {
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
        applyDelta(guard, { add, set });
        guard
          .set([MARKS_ATTRIBUTE, shardKey], mark)
          .when(...stateCondition(guard, kind, state, 0), notCountedYet(guard, [MARKS_ATTRIBUTE, shardKey], (pending[0] as E).seq));
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
      return outcome.landed ? { landed: true, after: openedFound(delta, (pending[pending.length - 1] as IssueEvent).seq) } : outcome;
    }
    const update = new Expression();
    const guess = countIssue(update, delta, found, decision.regression);
    update.set([MARKS_ATTRIBUTE, shardKey], mark);
    update.when(
      ...stateCondition(update, ISSUE_ITEM, state, nowSeconds),
      ...guess,
      notCountedYet(update, [MARKS_ATTRIBUTE, shardKey], (pending[0] as IssueEvent).seq),
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
    const update = new Expression();
    if (!pruneIssue(update, item, this.now())) return;
    update.when(update.exists('pk'));
    try {
      await this.update(key, update, 'UpdateItem (prune issue)', ISSUE_ITEM, '');
    } catch {
      // Gone since (expired, removed), or anything else: the next batch prunes.
    }
  }

  /** The shared counting write (counting-writes.ts) on this item, read back as an item of `kind` for this shard. */
  private update(key: string, update: Expression, operation: string, kind: ItemKind, shardKey: string): Promise<Written> {
    return conditionalUpdate({ doc: this.doc, tableName: this.tableName, key, operation, foundOf: (item) => foundOf(item, kind, shardKey) }, update);
  }

  /** A conditional PutItem: landed, or refused with the item that was there. */
  private async put(item: Item, operation: string, guard: Expression, kind: ItemKind, shardKey: string): Promise<Written> {
    try {
      await storageCall(operation, () =>
        this.doc.send(new PutCommand({ TableName: this.tableName, Item: item, ...guard.forCondition(), ReturnValuesOnConditionCheckFailure: 'ALL_OLD' })),
      );
      return { landed: true };
    } catch (error) {
      return refusedAs(error, (old) => foundOf(old, kind, shardKey));
    }
  }

  private remember(key: string, guess: IssueGuess): void {
    if (this.guesses.size > 10_000) this.guesses.clear();
    this.guesses.set(key, guess);
  }
}

/** Waits for every write; throws the first failure once all have settled. */
async function settleAll(writes: Promise<unknown>[]): Promise<void> {
  const settled = await Promise.allSettled(writes);
  const failed = settled.find((write): write is PromiseRejectedResult => write.status === 'rejected');
  if (failed) throw failed.reason;
}
