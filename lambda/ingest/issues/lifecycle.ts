/**
 * What new events do to the item that counts them (docs/report-issues.md#issues-and-their-lifecycle): one decision
 * table, keyed by the state the item is found in. The in-memory store applies it as written (./apply-delta.ts); the
 * DynamoDB tally writes each row as one conditional write whose condition is the row's state, so that a write made
 * for a wrong guess is refused and the item it returns names the state to write for next
 * (lambda/ingest/tally/exactly-once.ts, lambda/infrastructure/store/reports/tally-writes.ts). test/store/item-states-agree.test.ts
 * holds each state's DynamoDB condition to `itemStateOf` on every kind of item.
 *
 * An issue's item is in one of all five states; a counter item (a factory's filtered or set-aside events) has no
 * status and is counted on until DynamoDB removes it (its facts carry no expiry), so it is only ever absent, unmarked
 * or active.
 */
export type ItemState = 'absent' | 'expired' | 'unmarked' | 'active' | 'resolved';
export const ITEM_STATES: readonly ItemState[] = ['absent', 'expired', 'unmarked', 'active', 'resolved'];

/** The write a state calls for: a new item, the bookkeeping an old item lacks, or the events counted in. */
export type ItemWrite = 'open' | 'mark' | 'count';

export interface Decision {
  write: ItemWrite;
  /** The state a landed write leaves the item in, when the batch is not counted yet; `done` when it is. */
  next: ItemState | 'done';
  /** The issue was resolved: counting reopens it and records a regression, in the same write. */
  regression: boolean;
}

/** The one decision table. */
export const DECISIONS: Readonly<Record<ItemState, Decision>> = {
  /** None yet: a new open issue (a new counter) holding these events only. */
  absent: { write: 'open', next: 'done', regression: false },
  /** Past its expiry, not yet removed by DynamoDB's time to live: replaced by a new open issue, as if absent. */
  expired: { write: 'open', next: 'done', regression: false },
  /** Written before the tally kept marks and counts per period (the design before): given empty ones, once, then counted. */
  unmarked: { write: 'mark', next: 'active', regression: false },
  /** Open or ignored (a counter: there): counted, its status kept. */
  active: { write: 'count', next: 'done', regression: false },
  /** Resolved: counted, opened again, a regression recorded. Only one write can find it resolved. */
  resolved: { write: 'count', next: 'done', regression: true },
};

/** What the state of an item depends on, as found (undefined: none). */
export interface ItemFacts {
  /** Epoch seconds; an item without a number here never expires by this rule. */
  expiresAt?: unknown;
  status?: unknown;
  /** It keeps marks and, for an issue, counts per period: the tally's bookkeeping. */
  marked: boolean;
}

/** The state an item is in at `nowSeconds` (epoch seconds): each row of DECISIONS applies to exactly the items it names. */
export function itemStateOf(item: ItemFacts | undefined, nowSeconds: number): ItemState {
  if (!item) return 'absent';
  if (typeof item.expiresAt === 'number' && item.expiresAt <= nowSeconds) return 'expired';
  if (!item.marked) return 'unmarked';
  return item.status === 'resolved' ? 'resolved' : 'active';
}
