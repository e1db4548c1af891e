import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { markedSequence, type FoundItem, type WriteOutcome } from '../../../ingest/tally/exactly-once';
import { isConditionalCheckFailed, itemOfFailure, storageCall } from '../errors';
import type { AttributePath, Condition, Expression } from '../expression';

type Item = Record<string, unknown>;

/**
 * The one conditional write the tally's exactly-once protocol (lambda/ingest/tally/exactly-once.ts) counts with,
 * shared by every item it counts into: an issue and a factory's filtered or set-aside events (tally-writes.ts), a
 * release, its hours, its factory's hours and a key's client reports (release-writes.ts). A landed write answers the
 * item after it (ALL_NEW), a refused one the item as it was (ALL_OLD), each read by the caller's `foundOf` into what
 * the protocol learns from: the item's state and this shard's mark.
 */

/** A counting write's outcome, with the item after it when it landed (what a prune after the count reads). */
export type Written<F extends FoundItem> = WriteOutcome<F> & { item?: Item };

/** Where a counting write goes and how its caller reads an item it gets back. */
export interface CountingTarget<F extends FoundItem> {
  doc: DynamoDBDocumentClient;
  tableName: string;
  /** The item's partition key (the reports table has no sort key). */
  key: string;
  /** For a failure's message and the call's log: `UpdateItem (<what>)`. */
  operation: string;
  foundOf(item: Item): F;
}

/** A conditional UpdateItem: landed with the item after it, or refused with the item before (none: no item). Any other failure is thrown on. */
export async function conditionalUpdate<F extends FoundItem>(target: CountingTarget<F>, update: Expression): Promise<Written<F>> {
  try {
    const result = await storageCall(target.operation, () =>
      target.doc.send(
        new UpdateCommand({
          TableName: target.tableName,
          Key: { pk: target.key },
          ...update.forUpdate(),
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      ),
    );
    return { landed: true, ...(result.Attributes ? { after: target.foundOf(result.Attributes), item: result.Attributes } : {}) };
  } catch (error) {
    return refusedAs(error, target.foundOf);
  }
}

/** A refused condition as the item it returned (none: no item); any other failure is thrown on. */
export function refusedAs<F extends FoundItem>(error: unknown, foundOf: (item: Item) => F): Written<F> {
  if (!isConditionalCheckFailed(error)) throw error;
  const old = itemOfFailure<Item>(error);
  return { landed: false, ...(old ? { found: foundOf(old) } : {}) };
}

/** The shard's mark (at `markPath`) names a record before this one, or there is none: the record has not been counted. */
export function notCountedYet(expression: Expression, markPath: AttributePath, firstSeq: string): Condition {
  // A mark is "<sequence>@<seconds>" with the sequence padded: below the first record's sequence exactly when it names an earlier record.
  return expression.or(expression.notExists(markPath), expression.is(markPath, '<', firstSeq));
}

/** What one counting write adds (numbers) and sets (values, and values only an item without them takes) on its item, beside its mark. */
export interface CounterDelta {
  add: Record<string, number>;
  set: Item;
  setOnce?: Item;
}

/** A counter delta's clauses on `update`; an add of 0 is left out (it would only name an attribute). */
export function applyDelta(update: Expression, { add, set, setOnce = {} }: CounterDelta): Expression {
  for (const [name, value] of Object.entries(set)) update.set(name, value);
  for (const [name, value] of Object.entries(setOnce)) update.setOnce(name, value);
  for (const [name, n] of Object.entries(add)) if (n !== 0) update.add(name, n);
  return update;
}

/**
 * An item whose marks are top-level attributes (`mark_<shard>`: a release counter, an (issue, person) pair) as the
 * protocol sees it: marked always, with this shard's mark.
 */
export function markedAt(item: Item, markName: string): FoundItem {
  const mark = markedSequence(item[markName]);
  return { marked: true, ...(mark === undefined ? {} : { mark }) };
}
