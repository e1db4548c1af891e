import fc from 'fast-check';
import { itemStateOf, type ItemState } from '../../../../lambda/ingest/issues/lifecycle';
import {
  afterMark,
  countExactlyOnce,
  MARK_KEEP_SECONDS,
  markedSequence,
  markOf,
  MAX_ROUNDS,
  padSequence,
  staleMarks,
  type FoundItem,
  type Round,
  type WriteOutcome,
} from '../../../../lambda/ingest/tally/exactly-once';

/**
 * The tally's exactly-once protocol as plain code (lambda/ingest/tally/exactly-once.ts), driven here against a
 * conditional store in memory that holds one item: each write lands only if the item is in the state it was
 * written for and its shard's mark is before the write's first record, as the DynamoDB adapter's conditions say
 * (held to DynamoDB Local by test/store/item-states-agree.test.ts and test/store/tally.test.ts).
 */
interface Record {
  seq: string;
}

/** One item: its state's facts, its counted records, and its marks per shard. */
class ConditionalItem {
  facts?: { expiresAt?: number; status?: string; marked: boolean };
  counted: string[] = [];
  marks = new Map<string, string>();
  writes: string[] = [];

  found(shard: string): FoundItem | undefined {
    if (!this.facts) return undefined;
    const mark = this.marks.get(shard);
    return { ...this.facts, ...(mark === undefined ? {} : { mark }) };
  }

  /** A round's write, applied only if its conditions hold, as a conditional write is. */
  write(shard: string, now: number, { state, decision, pending }: Round<Record, FoundItem>): WriteOutcome<FoundItem> {
    const found = this.found(shard);
    const before = found?.mark;
    const fresh = before === undefined || (pending[0] as Record).seq > before;
    this.writes.push(`${decision.write}:${state}`);
    if (itemStateOf(found, now) !== state || (decision.write !== 'mark' && !fresh)) return { landed: false, ...(found ? { found } : {}) };
    if (decision.write === 'mark') {
      this.facts = { ...(this.facts as NonNullable<ConditionalItem['facts']>), marked: true };
      return { landed: true };
    }
    if (decision.write === 'open') {
      this.counted = [];
      this.marks = new Map();
    }
    this.counted.push(...pending.map((record) => record.seq));
    this.marks.set(shard, (pending[pending.length - 1] as Record).seq);
    this.facts = { expiresAt: now + 100, status: decision.regression || decision.write === 'open' ? 'open' : this.facts?.status, marked: true };
    return { landed: true, after: this.found(shard) as FoundItem };
  }
}

const records = (from: number, to: number): Record[] => Array.from({ length: to - from }, (_, i) => ({ seq: padSequence(String(from + i)) }));

function countInto(item: ConditionalItem, shard: string, batch: Record[], believed: ItemState, now = 1000): Promise<FoundItem | undefined> {
  return countExactlyOnce(batch, { operation: 'test', believed, nowSeconds: () => now, write: async (round) => item.write(shard, now, round) });
}

describe('marks', () => {
  test('a sequence number is padded to 40 digits, so two compare as text as they compare as numbers', () => {
    expect(padSequence('49600000000000000000001')).toBe('0000000000000000049600000000000000000001');
    expect(padSequence('999') < padSequence('1000')).toBe(true);
  });

  test('a mark names its record and when; anything else names none', () => {
    const mark = markOf(padSequence('17'), 1_700_000_000_999);
    expect(mark).toBe(`${padSequence('17')}@1700000000`);
    expect(markedSequence(mark)).toBe(padSequence('17'));
    expect(markedSequence(undefined)).toBeUndefined();
    expect(markedSequence(42)).toBeUndefined();
  });

  test('a mark older than a day and an hour is stale (no record of its shard can come again); a younger one, or one without a time, is kept', () => {
    const nowMs = 1_700_000_000_000;
    const at = (seconds: number) => `${padSequence('1')}@${seconds}`;
    const marks = { old: at(nowMs / 1000 - MARK_KEEP_SECONDS - 1), young: at(nowMs / 1000 - MARK_KEEP_SECONDS + 60), odd: 'no time' };
    expect(staleMarks(marks, nowMs)).toEqual(['old']);
  });

  test('the records after a mark are those with a later sequence number, in their order; all of them without a mark', () => {
    const batch = records(10, 15);
    expect(afterMark(batch, padSequence('12')).map((record) => record.seq)).toEqual([padSequence('13'), padSequence('14')]);
    expect(afterMark(batch, undefined)).toEqual(batch);
  });
});

describe('counting exactly once', () => {
  test('a new item is opened with the batch, once: the same batch again is found counted, with no second write that lands', async () => {
    const item = new ConditionalItem();
    await countInto(item, 's1', records(1, 4), 'active');
    await countInto(item, 's1', records(1, 4), 'active');
    expect(item.counted).toEqual(records(1, 4).map((record) => record.seq));
    // The first guess (active) refused, then opened; the second delivery's guess refused and found everything counted.
    expect(item.writes).toEqual(['count:active', 'open:absent', 'count:active']);
  });

  test('a batch cut elsewhere the second time counts only the records after the mark', async () => {
    const item = new ConditionalItem();
    await countInto(item, 's1', records(1, 5), 'absent');
    await countInto(item, 's1', records(3, 9), 'active');
    expect(item.counted).toEqual(records(1, 9).map((record) => record.seq));
  });

  test('an item of the design before is marked, then counted; a resolved one is counted and reopened in one write', async () => {
    const old = new ConditionalItem();
    old.facts = { expiresAt: 5000, status: 'open', marked: false };
    await countInto(old, 's1', records(1, 3), 'active');
    expect(old.writes).toEqual(['count:active', 'mark:unmarked', 'count:active']);
    const resolved = new ConditionalItem();
    resolved.facts = { expiresAt: 5000, status: 'resolved', marked: true };
    await countInto(resolved, 's1', records(1, 3), 'active');
    expect(resolved.writes).toEqual(['count:active', 'count:resolved']);
    expect(resolved.facts.status).toBe('open');
  });

  test('an expired item is replaced by a new one holding only the new records', async () => {
    const item = new ConditionalItem();
    item.facts = { expiresAt: 900, status: 'resolved', marked: true };
    item.counted = ['old'];
    await countInto(item, 's1', records(1, 3), 'resolved');
    expect(item.counted).toEqual(records(1, 3).map((record) => record.seq));
    expect(item.facts).toMatchObject({ status: 'open' });
  });

  test('marks are per shard: a record of another shard with a lower number is still counted', async () => {
    const item = new ConditionalItem();
    await countInto(item, 's1', records(100, 102), 'absent');
    await countInto(item, 's2', records(1, 3), 'active');
    expect(item.counted).toHaveLength(4);
  });

  test('an item that keeps changing under every write fails the batch after MAX_ROUNDS writes (it is delivered again)', async () => {
    let writes = 0;
    const refusing = async (): Promise<WriteOutcome<FoundItem>> => {
      writes += 1;
      return { landed: false, found: { marked: true, status: writes % 2 === 0 ? 'resolved' : 'open' } };
    };
    await expect(countExactlyOnce(records(1, 3), { operation: 'UpdateItem (test)', believed: 'active', nowSeconds: () => 0, write: refusing })).rejects.toThrow(
      /UpdateItem \(test\) failed: .*kept changing/,
    );
    expect(writes).toBe(MAX_ROUNDS);
  });

  test('any deliveries of one shard (repeated, re-cut, overlapping) count every record exactly once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ from: fc.nat(30), size: fc.integer({ min: 1, max: 10 }) }), { minLength: 1, maxLength: 15 }),
        async (deliveries) => {
          const item = new ConditionalItem();
          const shard = records(0, 40);
          let reached = 0;
          for (const { from, size } of deliveries) {
            // A stream hands a shard over in order, and again only from a place it had reached.
            const start = Math.min(from, reached);
            reached = Math.max(reached, start + size);
            await countInto(item, 's1', shard.slice(start, start + size), 'active');
          }
          await countInto(item, 's1', shard, 'active');
          expect(item.counted).toEqual(shard.map((record) => record.seq));
        },
      ),
      { numRuns: 200 },
    );
  });
});
