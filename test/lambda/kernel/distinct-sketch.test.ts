import { constants, deflateRawSync } from 'node:zlib';
import {
  addHashes,
  foldRegisters,
  LEGACY_PRECISION,
  PRECISION,
  precisionOf,
  decodeRegisters,
  deflateRegisters,
  type DistinctSketch,
  distinctCount,
  EXACT_LIMIT,
  emptySketch,
  encodeRegisters,
  inflateRegisters,
  isSketchHash,
  mergeSketches,
  sketchHashOf,
  wouldChange,
} from '../../../lambda/kernel/distinct-sketch';
import { seededHashes, sketchError } from '../../../tools/bench/sketch-error';

const hashes = seededHashes;
const sketchOf = (all: string[]): DistinctSketch => addHashes(emptySketch(), all);

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

  // The fast part of `npm run bench:sketch-accuracy` (the figures in docs/report-issues.md#visitors-affected): it
  // fails if the error grows. Seeded, so the same figures every run: at 2^14 registers σ ≈ 0.81 %.
  test.each([
    [1_000, 60],
    [10_000, 15],
    [100_000, 3],
  ])('at %i distinct hashes over %i seeded runs the RMS error is under 1 %% and no single count is off by 2 %% or more', (size, runs) => {
    const error = sketchError(size, runs);
    expect(error.rms).toBeLessThan(0.01);
    expect(error.max).toBeLessThan(0.02);
  });

  test('registers round-trip through their compact text, small while the sketch is sparse; a damaged text is refused', () => {
    const sizes = [150, 20_000].map((size) => {
      const sketch = sketchOf(hashes(9, size));
      if (sketch.kind !== 'registers') throw new Error('expected registers');
      const text = encodeRegisters(sketch.registers);
      expect(decodeRegisters(text)).toEqual(sketch.registers);
      expect(decodeRegisters(text.slice(0, -3))).toBeUndefined();
      return text.length;
    });
    expect(sizes[0]).toBeLessThan(1_500);
    expect(sizes[1]).toBeLessThan(12_000);
    expect(decodeRegisters('~not deflate')).toBeUndefined();
    // Ranks past the largest a 48-bit hash can make: not registers.
    expect(decodeRegisters(`~${deflateRawSync(new Uint8Array(1 << PRECISION).fill(60)).toString('base64url')}`)).toBeUndefined();
  });

  test('registers deflate to the smaller of run-length and Huffman-only coding, and what level 9 wrote before still reads', () => {
    for (const size of [101, 1_000, 10_000, 100_000]) {
      const sketch = sketchOf(hashes(21, size));
      if (sketch.kind !== 'registers') throw new Error('expected registers');
      const stored = deflateRegisters(sketch.registers);
      expect(inflateRegisters(stored)).toEqual(sketch.registers);
      const runs = deflateRawSync(sketch.registers, { strategy: constants.Z_RLE }).length;
      const codes = deflateRawSync(sketch.registers, { strategy: constants.Z_HUFFMAN_ONLY }).length;
      expect(stored.length).toBe(Math.min(runs, codes));
      expect(inflateRegisters(deflateRawSync(sketch.registers, { level: 9 }))).toEqual(sketch.registers);
    }
  });

  test('a sketch stored before (4,096 registers, 6-bit packed text) still reads, counts, takes hashes and merges at its precision', () => {
    const all = hashes(14, 30_000);
    const legacy = new Uint8Array(1 << LEGACY_PRECISION);
    // The earlier writer: the first 12 bits chose the register, 1 + the leading zeros of the next 36 its rank.
    for (const hash of all.slice(0, 20_000)) {
      const v = [...hash].map((char) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.indexOf(char));
      let rank = 1;
      for (const sextet of v.slice(2)) {
        if (sextet !== 0) {
          rank += Math.clz32(sextet) - 26;
          break;
        }
        rank += 6;
      }
      const index = ((v[0] as number) << 6) | (v[1] as number);
      legacy[index] = Math.max(legacy[index] as number, rank);
    }
    const packed = new Uint8Array(3072);
    for (let i = 0; i < legacy.length; i += 4) {
      const [a = 0, b = 0, c = 0, d = 0] = legacy.subarray(i, i + 4);
      packed.set([(a << 2) | (b >> 4), ((b & 15) << 4) | (c >> 2), ((c & 3) << 6) | d], (i / 4) * 3);
    }
    const read = decodeRegisters(Buffer.from(packed).toString('base64url'));
    expect(read).toEqual(legacy);
    const old: DistinctSketch = { kind: 'registers', registers: read as Uint8Array };
    expect(Math.abs(distinctCount(old).count - 20_000) / 20_000).toBeLessThan(0.05);
    // Adding keeps its precision (the hashes behind it are gone); the same as a legacy sketch of all of them.
    const grown = addHashes(old, all.slice(20_000));
    if (grown.kind !== 'registers') throw new Error('expected registers');
    expect(precisionOf(grown.registers)).toBe(LEGACY_PRECISION);
    // Merging with a new sketch folds the new one down: the union at 12 bits, whichever side.
    const merged = mergeSketches(sketchOf(all.slice(20_000)), old);
    expect(merged).toEqual(grown);
    expect(mergeSketches(old, sketchOf(all.slice(20_000)))).toEqual(grown);
    // Written again, the compact text.
    expect(decodeRegisters(encodeRegisters(grown.registers))).toEqual(grown.registers);
  });

  test('folding registers to 12 bits gives what a 12-bit sketch of the same hashes holds', () => {
    const all = hashes(15, 50_000);
    const sketch = sketchOf(all);
    if (sketch.kind !== 'registers') throw new Error('expected registers');
    expect(precisionOf(sketch.registers)).toBe(PRECISION);
    const folded = foldRegisters(sketch.registers, LEGACY_PRECISION);
    const direct = addHashes({ kind: 'registers', registers: new Uint8Array(1 << LEGACY_PRECISION) }, all);
    expect(direct).toEqual({ kind: 'registers', registers: folded });
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
