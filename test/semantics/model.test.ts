import { Buckets } from '../../tools/semantics/buckets';
import { appliedWriteCharges, predictedCharges } from '../../tools/semantics/cost-model';
import { itemSize, numberSize, writeUnitsOf } from '../../tools/semantics/item-size';
import type { TableSchema } from '../../tools/semantics/table-schemas';
import { predictUpdate } from '../../tools/semantics/update-prediction';

/** The proxy's pure parts: item sizes, the cost rules, the update prediction and the buckets. */
const S = (text: string) => ({ S: text });
const N = (text: string) => ({ N: text });

describe('item size', () => {
  test('an item is the UTF-8 bytes of its attribute names and values', () => {
    expect(itemSize({ pk: S('abc'), é: S('ü') })).toBe(2 + 3 + 2 + 2);
  });

  test('a number takes about a byte per two significant digits, plus one', () => {
    expect(numberSize('12345')).toBe(4);
    expect(numberSize('0.00120')).toBe(2);
    expect(numberSize('-7')).toBe(3);
  });

  test('lists and maps take 3 bytes, plus a byte and the size of each element', () => {
    expect(itemSize({ l: { L: [S('ab'), { BOOL: true }] } })).toBe(1 + 3 + (1 + 2) + (1 + 1));
    expect(itemSize({ m: { M: { k: S('v') } } })).toBe(1 + 3 + (1 + 1 + 1));
  });

  test('write units: one per started KB, at least one', () => {
    expect([0, 1, 1024, 1025, 3072, 3073].map(writeUnitsOf)).toEqual([1, 1, 1, 2, 3, 4]);
  });
});

const table: TableSchema = {
  name: 't',
  partitionKey: 'pk',
  indexes: [
    { name: 'byG', partitionKey: 'g', sortKey: 'at', projection: { type: 'KEYS_ONLY' }, arn: 'arn:t/index/byG' },
    { name: 'byAll', partitionKey: 'h', projection: { type: 'ALL' }, arn: 'arn:t/index/byAll' },
  ],
  arn: 'arn:t',
};
const key = { pk: S('a') };
const charges = (before: Record<string, any> | undefined, after: Record<string, any> | undefined, transactional = false) =>
  appliedWriteCharges(table, key, before, after, transactional).map(({ partition, units }) => `${partition.index ?? 'table'}:${partition.key}=${units}`);

describe('cost rules', () => {
  test('a new item in a sparse index: the table, and the index entry it gets', () => {
    expect(charges(undefined, { ...key, g: S('x'), at: S('1') })).toEqual(['table:a=1', 'byG:x=1']);
  });

  test('an index whose sort key moves costs a removal and an insertion, in the same partition', () => {
    expect(charges({ ...key, g: S('x'), at: S('1') }, { ...key, g: S('x'), at: S('2') })).toEqual(['table:a=1', 'byG:x=1', 'byG:x=1']);
  });

  test('an attribute leaving the index costs a removal; one it does not project costs it nothing', () => {
    expect(charges({ ...key, g: S('x'), at: S('1'), other: S('1') }, { ...key, at: S('1') })).toEqual(['table:a=1', 'byG:x=1']);
    expect(charges({ ...key, g: S('x'), at: S('1'), other: S('1') }, { ...key, g: S('x'), at: S('1'), other: S('2') })).toEqual(['table:a=1']);
  });

  test("an ALL index is written on any change of its item, for the entry's size", () => {
    const big = 'x'.repeat(2000);
    expect(charges({ ...key, h: S('y'), v: S(big) }, { ...key, h: S('y'), v: S(`${big}!`) })).toEqual(['table:a=2', 'byAll:y=2']);
  });

  test("a transaction doubles the table's units, not the index's", () => {
    expect(charges(undefined, { ...key, g: S('x'), at: S('1') }, true)).toEqual(['table:a=2', 'byG:x=1']);
  });

  test('a delete of a missing item costs one unit', () => {
    expect(charges(undefined, undefined)).toEqual(['table:a=1']);
  });

  test('admission charges an index whose projected attribute the update changes in a way not evaluated', () => {
    const before = { ...key, h: S('y'), list: { L: [] } };
    const expected = predictedCharges(table, key, before, before, new Set(['list']), false).map(
      ({ partition }) => `${partition.index ?? 'table'}:${partition.key}`,
    );
    expect(expected).toEqual(['table:a', 'byAll:y']);
  });
});

describe('update prediction', () => {
  const predict = (expression: string, values: Record<string, any>, before?: Record<string, any>, names: Record<string, string> = {}) =>
    predictUpdate({ UpdateExpression: expression, ExpressionAttributeValues: values, ExpressionAttributeNames: names }, key, before);

  test('SET of values, if_not_exists and sums; REMOVE', () => {
    const { after, unknown } = predict(
      'SET #f = if_not_exists(#f, :f), #n = #n + :one, seen = :now REMOVE gone',
      { ':f': S('new'), ':one': N('1'), ':now': S('t') },
      { ...key, f: S('kept'), n: N('4'), gone: S('x') },
      { '#f': 'f', '#n': 'n' },
    );
    expect(after).toEqual({ ...key, f: S('kept'), n: N('5'), seen: S('t') });
    expect([...unknown]).toEqual([]);
  });

  test('ADD to a missing number starts from zero; ADD and DELETE on sets', () => {
    const { after } = predict(
      'ADD n :two, tags :t DELETE old :o',
      { ':two': N('2'), ':t': { SS: ['b'] }, ':o': { SS: ['x'] } },
      { ...key, tags: { SS: ['a'] }, old: { SS: ['x'] } },
    );
    expect(after).toEqual({ ...key, n: N('2'), tags: { SS: ['a', 'b'] } });
  });

  test('what it cannot evaluate it names: nested paths and list_append', () => {
    const { unknown } = predict('SET m.inner = :v, l = list_append(l, :v)', { ':v': S('v') }, key);
    expect([...unknown].sort()).toEqual(['l', 'm']);
  });

  test('the legacy AttributeUpdates', () => {
    const { after } = predictUpdate(
      { AttributeUpdates: { a: { Action: 'PUT', Value: S('1') }, n: { Action: 'ADD', Value: N('3') }, gone: { Action: 'DELETE' } } },
      key,
      { ...key, n: N('1'), gone: S('x') },
    );
    expect(after).toEqual({ ...key, a: S('1'), n: N('4') });
  });
});

describe('buckets', () => {
  let now = 0;
  const buckets = () => new Buckets({ ceiling: 10, burstSeconds: 1 }, () => now);

  test("a bucket admits while above zero, then refills at the ceiling's rate up to one burst", () => {
    const bucket = buckets();
    bucket.charge('p', 10);
    expect(bucket.admits('p')).toBe(false);
    now += 100;
    expect(bucket.level('p')).toBeCloseTo(1);
    now += 10_000;
    expect(bucket.level('p')).toBe(10);
  });

  test('a write admitted at 1 token that costs 5 leaves the bucket in debt until refilled', () => {
    const bucket = buckets();
    bucket.charge('p', 9);
    bucket.charge('p', 5);
    expect(bucket.level('p')).toBe(-4);
    now += 400;
    expect(bucket.admits('p')).toBe(false);
    now += 100;
    expect(bucket.admits('p')).toBe(true);
  });

  test('units given back never fill a bucket beyond its depth', () => {
    const bucket = buckets();
    bucket.charge('p', -50);
    expect(bucket.level('p')).toBe(10);
  });
});
