import { addHashes, distinctCount, emptySketch } from '../../lambda/kernel/distinct-sketch';

const CODES = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'].map((char) => char.charCodeAt(0));

/** A seeded stream of random 48-bit hashes as 8 base64url characters (mulberry32): the same every run, no flaky figure. */
export function seededHashes(seed: number, count: number): string[] {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  const out: string[] = new Array(count);
  for (let i = 0; i < count; i += 1) {
    // 48 random bits: two 24-bit halves of two draws.
    const [a, b] = [next(), next()];
    out[i] = String.fromCharCode(
      CODES[a & 63] as number,
      CODES[(a >>> 6) & 63] as number,
      CODES[(a >>> 12) & 63] as number,
      CODES[(a >>> 18) & 63] as number,
      CODES[b & 63] as number,
      CODES[(b >>> 6) & 63] as number,
      CODES[(b >>> 12) & 63] as number,
      CODES[(b >>> 18) & 63] as number,
    );
  }
  return out;
}

/** The relative errors of a sketch's count over many seeded runs at one true count. */
export interface SketchError {
  size: number;
  runs: number;
  /** Root mean square of the relative errors. */
  rms: number;
  /** The 99th percentile of |relative error| (nearest rank). */
  p99: number;
  max: number;
  mean: number;
}

/** Counts `size` distinct seeded hashes `runs` times (each run its own seed) and sums up the relative errors. */
export function sketchError(size: number, runs: number, seedBase = 1): SketchError {
  const errors: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const { count } = distinctCount(addHashes(emptySketch(), seededHashes(seedBase + run * 7919 + size, size)));
    errors.push((count - size) / size);
  }
  const absolute = errors.map(Math.abs).sort((a, b) => a - b);
  return {
    size,
    runs,
    rms: Math.sqrt(errors.reduce((sum, error) => sum + error * error, 0) / runs),
    p99: absolute[Math.max(0, Math.ceil(0.99 * runs) - 1)] as number,
    max: absolute[absolute.length - 1] as number,
    mean: errors.reduce((sum, error) => sum + error, 0) / runs,
  };
}
