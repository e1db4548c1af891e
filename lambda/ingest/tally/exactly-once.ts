import { StorageUnavailableError } from '../../kernel/errors';
import { DECISIONS, itemStateOf, type Decision, type ItemFacts, type ItemState } from '../issues/lifecycle';
import type { Sequence } from './ports';

/**
 * The tally's exactly-once protocol (docs/report-issues.md#exact-counts), as plain code: the store is a few
 * conditional writes (lambda/infrastructure/store/reports/tally-writes.ts) and this drives them.
 *
 * Each item the tally counts into (an issue, a factory's filtered or set-aside events) keeps per stream shard a mark:
 * the last record of that shard it counted. A write counts only records after the mark and moves the mark in the
 * same conditional write, and its condition also names the state it was written for (../issues/lifecycle.ts: the
 * one decision table says which write each state calls for). So a batch delivered again, cut elsewhere, or counted
 * by two consumers at once is counted once: a refused write returns the item, whose mark drops the records it
 * counted already and whose state the next round writes for.
 */

/** Width sequences are padded to: DynamoDB's are decimal strings of 21 to 40 digits, increasing within a shard. */
const SEQUENCE_WIDTH = 40;

/** A stream record's sequence number as the marks keep it: padded, so two compare as text. Pinned (test/deploy/tally-canary.test.ts). */
export const padSequence = (sequence: string): Sequence => sequence.padStart(SEQUENCE_WIDTH, '0');

/** A mark as stored: "<sequence>@<epoch seconds>", the record counted last and when. */
export const markOf = (sequence: Sequence, nowMs: number): string => `${sequence}@${Math.floor(nowMs / 1000)}`;

/** The record a stored mark names; undefined for anything that is not a mark. */
export const markedSequence = (mark: unknown): Sequence | undefined => (typeof mark === 'string' ? mark.slice(0, SEQUENCE_WIDTH) : undefined);

/** A mark is kept one day and an hour: the stream keeps a record 24 hours, so no record older than that can come again. */
export const MARK_KEEP_SECONDS = 25 * 3600;

/** The shards whose marks are too old to keep at `nowMs`: no record of theirs can come again. */
export function staleMarks(marks: Readonly<Record<string, unknown>>, nowMs: number): string[] {
  return Object.entries(marks).flatMap(([shard, mark]) => {
    const at = Number(String(mark).split('@')[1]);
    return Number.isFinite(at) && at < nowMs / 1000 - MARK_KEEP_SECONDS ? [shard] : [];
  });
}

/** The records after the mark (all of them without one), in their order. */
export const afterMark = <E extends { seq: Sequence }>(events: readonly E[], mark: Sequence | undefined): E[] =>
  mark === undefined ? [...events] : events.filter((event) => event.seq > mark);

/** An item as a write found it: the facts its state depends on, and this shard's mark on it. */
export interface FoundItem extends ItemFacts {
  mark?: Sequence;
}

/** A conditional write's answer: it landed (with the item after it, when the store returns it), or it was refused, with the item as it was (none: no item). */
export type WriteOutcome<F extends FoundItem> = { landed: true; after?: F } | { landed: false; found?: F };

/** One round: the state written for, its row of the decision table, the records still to count (never none) and what was last seen of the item. */
export interface Round<E, F> {
  state: ItemState;
  decision: Decision;
  pending: E[];
  found?: F;
}

/** How one item is counted into: the state believed first and what was seen of it, the clock its expiry is read against, and its writes. */
export interface CountingPlan<E, F extends FoundItem> {
  /** For the error that ends a batch whose item kept changing. */
  operation: string;
  believed: ItemState;
  found?: F;
  /** Epoch seconds the item's expiry is judged at, for these records (an issue: the latest receive time among them). */
  nowSeconds(pending: readonly E[]): number;
  /** The round's write, conditional on the round's state and on the mark being before its first record. */
  write(round: Round<E, F>): Promise<WriteOutcome<F>>;
}

/** Rounds at most per item and batch: each refused round learns a state or drops counted records. */
export const MAX_ROUNDS = 8;

/**
 * Counts the records (all of one item, of one shard, in stream order) into their item, exactly once: rounds of the
 * decision table's write for the state believed, until one lands for a `done` row or every record is found counted.
 * Answers what was last seen of the item. An item that keeps changing under MAX_ROUNDS writes fails the batch
 * (StorageUnavailableError), which is delivered again.
 */
export async function countExactlyOnce<E extends { seq: Sequence }, F extends FoundItem>(
  events: readonly E[],
  plan: CountingPlan<E, F>,
): Promise<F | undefined> {
  let pending = [...events];
  let state = plan.believed;
  let found = plan.found;
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    if (pending.length === 0) return found;
    const decision = DECISIONS[state];
    const outcome = await plan.write({ state, decision, pending, found });
    if (outcome.landed) {
      found = outcome.after ?? found;
      if (decision.next === 'done') return found;
      state = decision.next;
      continue;
    }
    found = outcome.found;
    pending = afterMark(pending, found?.mark);
    if (pending.length > 0) state = itemStateOf(found, plan.nowSeconds(pending));
  }
  if (pending.length === 0) return found;
  throw new StorageUnavailableError(plan.operation, new Error(`the item kept changing under ${MAX_ROUNDS} attempts`));
}
