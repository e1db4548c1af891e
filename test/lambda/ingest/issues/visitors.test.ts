import { addVisitors, canonical, leadingZeros, levelFor, passes, visitorCount, VISITORS_KEPT } from '../../../../lambda/ingest/issues/visitors';

/** A visitor hash with `zeros` leading zero bits (its first characters 'A', value 0, then one of value 2^(5 - rest)). */
const hashWith = (zeros: number, tail: string): string => `${'A'.repeat(Math.floor(zeros / 6))}${'BCEIQg'[5 - (zeros % 6)]}${tail}`.slice(0, 8).padEnd(8, 'z');

describe("an issue's visitors", () => {
  test("a hash's leading zero bits, read 6 to a character", () => {
    expect(leadingZeros('g0000000')).toBe(0);
    expect(leadingZeros('Bzzzzzzz')).toBe(5);
    expect(leadingZeros('ABzzzzzz')).toBe(11);
    expect(leadingZeros('AAAAAAAA')).toBe(48);
    expect([passes('Bzzzzzzz', 5), passes('Bzzzzzzz', 6)]).toEqual([true, false]);
  });

  test('counted exactly up to 100 visitors, each counted once however often seen', () => {
    const hashes = Array.from({ length: 60 }, (_, n) => `v${String(n).padStart(7, '0')}`);
    const sample = addVisitors(addVisitors(undefined, hashes), hashes.slice(0, 30));
    expect(visitorCount(sample)).toEqual({ count: 60, exact: true });
    expect(visitorCount(undefined)).toEqual({ count: 0, exact: true });
  });

  test('past 100, the sample keeps a share and the count is an estimate, kept hashes times 2^level', () => {
    const hashes = Array.from({ length: 1000 }, (_, n) => hashWith(n % 4, String(n)));
    const sample = addVisitors(undefined, hashes);
    expect(sample.hashes.length).toBeLessThanOrEqual(VISITORS_KEPT);
    const count = visitorCount(sample);
    expect(count.exact).toBe(false);
    expect(count.count).toBe(sample.hashes.length * 2 ** sample.level);
  });

  test('the sample depends only on the set of hashes: order, batching and repeats do not change it', () => {
    const hashes = Array.from({ length: 500 }, (_, n) => hashWith(n % 5, `x${n}`));
    const once = addVisitors(undefined, hashes);
    const inBatches = [hashes.slice(300), hashes.slice(0, 300), hashes.slice(100, 200)].reduce(
      (sample, batch) => addVisitors(sample, batch),
      addVisitors(undefined, []),
    );
    expect(inBatches).toEqual(once);
    expect(canonical({ level: 0, hashes: [...hashes].reverse() })).toEqual(once);
  });

  test('the level only goes up, to the lowest at which at most 100 pass', () => {
    expect(levelFor(['a', 'b'], 3)).toBe(3);
    const many = Array.from({ length: 150 }, (_, n) => hashWith(n < 60 ? 0 : 1, String(n)));
    expect(levelFor(many, 0)).toBe(1);
  });
});
