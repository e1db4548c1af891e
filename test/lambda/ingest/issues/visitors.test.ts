import { createHash } from 'node:crypto';
import { addVisitors, leadingZeros, mergeVisitors, visitorCount, visitorsChange, visitorsOfSample } from '../../../../lambda/ingest/issues/visitors';

/** Hashes as uniform as the salted ones, the same on every run: a bound is checked, not the luck of one run. */
const fixed = (run: number, i: number): string => createHash('sha256').update(`${run}/${i}`).digest('base64url').slice(0, 8);
const hashes = (run: number, count: number): string[] => Array.from({ length: count }, (_, i) => fixed(run, i));

describe("an issue's visitors", () => {
  test('counted exactly up to 100 visitors, each counted once however often seen', () => {
    const sixty = hashes(0, 60);
    expect(visitorCount(addVisitors(addVisitors(undefined, sixty), sixty.slice(0, 30)))).toEqual({ count: 60, exact: true });
    expect(visitorCount(addVisitors(undefined, hashes(0, 100)))).toEqual({ count: 100, exact: true });
    expect(visitorCount(undefined)).toEqual({ count: 0, exact: true });
  });

  test('past 100 an estimate, within 3 % (root mean square) at 1,000, 10,000 and 100,000 visitors', () => {
    for (const [size, runs] of [
      [1000, 30],
      [10_000, 6],
      [100_000, 1],
    ] as const) {
      const errors = Array.from({ length: runs }, (_, run) => {
        const count = visitorCount(addVisitors(undefined, hashes(run, size)));
        expect(count.exact).toBe(false);
        return count.count / size - 1;
      });
      expect(Math.sqrt(errors.reduce((sum, error) => sum + error * error, 0) / runs)).toBeLessThan(0.03);
    }
  });

  test('what is kept depends only on the set of hashes: order, batching and repeats change nothing', () => {
    const all = hashes(1, 700);
    const once = addVisitors(undefined, all);
    const inBatches = [all.slice(300), all.slice(0, 300), all.slice(100, 200)].reduce(
      (visitors, batch) => addVisitors(visitors, batch),
      addVisitors(undefined, []),
    );
    expect(inBatches).toEqual(once);
    expect(mergeVisitors(addVisitors(undefined, all.slice(0, 50)), addVisitors(undefined, all.slice(50)))).toEqual(once);
    expect(visitorsChange(once, all.slice(0, 10))).toBe(false);
  });

  test("an older issue's sample is read as it was counted: level 0 exactly, above it as an estimate kept beside the sketch", () => {
    expect(visitorCount(visitorsOfSample(0, ['aaaaaaaa', 'bbbbbbbb', 'aaaaaaaa']))).toEqual({ count: 2, exact: true });
    // Level 2: each kept hash (its first two bits zero) stands for four visitors.
    const older = visitorsOfSample(2, ['AAAAAAAA', 'Azzzzzzz', 'Bzzzzzzz']);
    expect(visitorCount(older)).toEqual({ count: 12, exact: false });
    expect(visitorCount(addVisitors(older, ['gggggggg']))).toEqual({ count: 13, exact: false });
    expect(visitorsOfSample(3, [])).toBeUndefined();
  });

  test("a hash's leading zero bits, read 6 to a character (the older sample's rule)", () => {
    expect([leadingZeros('g0000000'), leadingZeros('Bzzzzzzz'), leadingZeros('ABzzzzzz'), leadingZeros('AAAAAAAA')]).toEqual([0, 5, 11, 48]);
  });
});
