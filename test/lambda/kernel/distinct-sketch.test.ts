import {
  addHashes,
  decodeRegisters,
  type DistinctSketch,
  distinctCount,
  EXACT_LIMIT,
  emptySketch,
  encodeRegisters,
  isSketchHash,
  mergeSketches,
  sketchHashOf,
  wouldChange,
} from '../../../lambda/kernel/distinct-sketch';

const CODES = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'].map((char) => char.charCodeAt(0));

/** A seeded stream of random 48-bit hashes (mulberry32): the same runs every time, no flaky accuracy. */
function hashes(seed: number, count: number): string[] {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  const out: string[] = [];
  for (let i = 0; i < count; i += 1) {
    // 48 random bits as 8 base64url characters: two 24-bit halves of two draws.
    const [a, b] = [next(), next()];
    out.push(
      String.fromCharCode(
        CODES[a & 63] as number,
        CODES[(a >>> 6) & 63] as number,
        CODES[(a >>> 12) & 63] as number,
        CODES[(a >>> 18) & 63] as number,
        CODES[b & 63] as number,
        CODES[(b >>> 6) & 63] as number,
        CODES[(b >>> 12) & 63] as number,
        CODES[(b >>> 18) & 63] as number,
      ),
    );
  }
  return out;
}

const sketchOf = (all: string[]): DistinctSketch => addHashes(emptySketch(), all);

/** Root mean square of the relative errors of `runs` sketches of `size` distinct hashes each. */
function rmsError(size: number, runs: number): number {
  let squares = 0;
  for (let run = 0; run < runs; run += 1) {
    const { count } = distinctCount(sketchOf(hashes(1000 + run * 7919 + size, size)));
    squares += ((count - size) / size) ** 2;
  }
  return Math.sqrt(squares / runs);
}

describe('distinct sketch', () => {
  test(`counts exactly up to ${EXACT_LIMIT} distinct hashes, repeats counted once`, () => {
    const some = hashes(1, EXACT_LIMIT);
    const sketch = addHashes(sketchOf(some), some.slice(0, 10));
    expect(distinctCount(sketch)).toEqual({ count: EXACT_LIMIT, exact: true });
    expect(distinctCount(undefined)).toEqual({ count: 0, exact: true });
  });

  test('past the exact limit it keeps registers, not hashes, and says the count is an estimate', () => {
    const sketch = sketchOf(hashes(2, EXACT_LIMIT + 1));
    expect(sketch.kind).toBe('registers');
    const { count, exact } = distinctCount(sketch);
    expect(exact).toBe(false);
    expect(Math.abs(count - (EXACT_LIMIT + 1))).toBeLessThanOrEqual(5);
  });

  test('the same set makes the same sketch whatever the order, the batching and the repeats', () => {
    const all = hashes(3, 5000);
    const once = sketchOf(all);
    let batched = emptySketch();
    for (let at = all.length; at > 0; at -= 333) batched = addHashes(batched, [...all.slice(Math.max(0, at - 333), at), ...all.slice(0, 5)]);
    expect(batched).toEqual(once);
  });

  test('merging two sketches gives the sketch of the union, exact or not', () => {
    const [a, b] = [hashes(4, 60), hashes(5, 3000)];
    expect(mergeSketches(sketchOf(a), sketchOf(b))).toEqual(sketchOf([...a, ...b]));
    expect(mergeSketches(sketchOf(b), sketchOf(a))).toEqual(sketchOf([...a, ...b]));
    expect(mergeSketches(sketchOf(a.slice(0, 30)), sketchOf(a.slice(20)))).toEqual(sketchOf(a));
    const [c, d] = [hashes(6, 2000), hashes(7, 2000)];
    expect(mergeSketches(sketchOf(c), sketchOf(d))).toEqual(sketchOf([...c, ...d]));
  });

  test.each([
    [1_000, 40],
    [10_000, 20],
    [100_000, 8],
  ])('at %i distinct hashes the RMS error over %i runs is under 2 %%', (size, runs) => {
    expect(rmsError(size, runs)).toBeLessThan(0.02);
  });

  test('at a million distinct hashes the estimate is within 3 %', () => {
    const { count } = distinctCount(sketchOf(hashes(8, 1_000_000)));
    expect(Math.abs(count - 1_000_000) / 1_000_000).toBeLessThan(0.03);
  });

  test('registers round-trip through their 4,096-character text, and a damaged text is refused', () => {
    const sketch = sketchOf(hashes(9, 20_000));
    if (sketch.kind !== 'registers') throw new Error('expected registers');
    const text = encodeRegisters(sketch.registers);
    expect(text).toHaveLength(4096);
    expect(decodeRegisters(text)).toEqual(sketch.registers);
    expect(decodeRegisters(text.slice(1))).toBeUndefined();
  });

  test('a hash it cannot read is left out, never counted or thrown on', () => {
    expect(isSketchHash('short')).toBe(false);
    expect(isSketchHash('abc$defgh')).toBe(false);
    expect(distinctCount(addHashes(emptySketch(), ['short', 'abc$defgh', 'constructor', '__proto__x']))).toEqual({ count: 2, exact: true });
  });

  test('wouldChange says whether adding the hashes changes the sketch, so a writer can skip the write', () => {
    const small = sketchOf(hashes(10, 50));
    expect(wouldChange(small, hashes(10, 50))).toBe(false);
    expect(wouldChange(small, hashes(11, 1))).toBe(true);
    const big = sketchOf(hashes(12, 50_000));
    expect(wouldChange(big, hashes(12, 50_000).slice(0, 1000))).toBe(false);
    expect(wouldChange(big, hashes(13, 5000))).toBe(true);
  });

  test('sketchHashOf gives the same readable hash for the same text, another for another', () => {
    expect(isSketchHash(sketchHashOf('user-1'))).toBe(true);
    expect(sketchHashOf('user-1')).toBe(sketchHashOf('user-1'));
    expect(sketchHashOf('user-1')).not.toBe(sketchHashOf('user-2'));
  });
});
