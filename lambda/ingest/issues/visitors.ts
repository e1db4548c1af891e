import { addHashes, distinctCount, emptySketch, mergeSketches, SKETCH_HASH_LENGTH, wouldChange, type DistinctSketch } from '../../kernel/distinct-sketch';

/**
 * Visitors affected by an issue (docs/report-issues.md#visitors-affected),
 * counted as privacy-first analytics count them: each event carries a short
 * hash of its client's address and user agent under a salt replaced every
 * day (lambda/ingest/visitor-hash.ts), nothing in the visitor's browser; an
 * issue keeps the kernel's distinct sketch of those hashes
 * (lambda/kernel/distinct-sketch.ts): the hashes themselves up to 100, so the
 * count is exact there, and past that a HyperLogLog of 16,384 registers, within
 * 2 % from a thousand to a million visitors (the figures are in the kernel's comment).
 *
 * Only anonymous visitors are counted here: an event that names a person (a
 * reporter's email) counts that person among the issue's people instead
 * (./affected.ts).
 *
 * What a sketch holds depends only on the set of hashes ever added, never on
 * their order, batching or repeats, so a batch counted twice, two shards'
 * writes in either order and the in-memory store all end with the same count.
 *
 * Issues counted before this sketch kept an adaptive sample (every hash whose
 * first `level` bits are zero, at most 100 of them). Read here as they were
 * counted: at level 0 the sample is every hash, the sketch's exact set; at a
 * level above it stands for hashes × 2^level visitors, which the issue keeps
 * as a count from before (`before`) with its sketch starting anew beside it
 * (salts change daily, so the visitors after are others than those before, but
 * for the day of the change).
 */

/** Characters of a visitor hash: base64url, 48 bits (what the sketch reads). */
export const VISITOR_HASH_LENGTH = SKETCH_HASH_LENGTH;

export interface IssueVisitors {
  sketch: DistinctSketch;
  /** Visitors an older issue counted by sampling before its sketch began: an estimate, added to the sketch's count. */
  before?: number;
}

export interface VisitorCount {
  count: number;
  /** False once the sketch keeps registers, or the issue carries a sampled count from before: the count is an estimate. */
  exact: boolean;
}

/** An issue's visitors with these hashes added (hashes the sketch cannot read are left out). */
export function addVisitors(visitors: IssueVisitors | undefined, hashes: readonly string[]): IssueVisitors {
  const sketch = addHashes(visitors?.sketch ?? emptySketch(), hashes);
  return visitors?.before === undefined ? { sketch } : { sketch, before: visitors.before };
}

/** Two readings of the same issue's visitors merged: what both saw. */
export function mergeVisitors(a: IssueVisitors, b: IssueVisitors): IssueVisitors {
  const before = a.before ?? b.before;
  const sketch = mergeSketches(a.sketch, b.sketch);
  return before === undefined ? { sketch } : { sketch, before };
}

/** Whether these hashes would change what is kept: a writer that knows the visitors skips the write when not. */
export const visitorsChange = (visitors: IssueVisitors | undefined, hashes: readonly string[]): boolean =>
  wouldChange(visitors?.sketch ?? emptySketch(), hashes);

/** Visitors counted: the sketch's count (exact up to 100), plus what an older issue counted before it. */
export function visitorCount(visitors: IssueVisitors | undefined): VisitorCount {
  if (!visitors) return { count: 0, exact: true };
  const counted = distinctCount(visitors.sketch);
  if (visitors.before === undefined) return counted;
  return { count: visitors.before + counted.count, exact: false };
}

/** Hashes the older sample kept at most: past this many, it raised its level. */
const SAMPLE_KEPT = 100;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Leading zero bits of a hash, its 6-bit characters in order (how the older sample chose the hashes it kept). */
export function leadingZeros(hash: string): number {
  let zeros = 0;
  for (const char of hash) {
    const value = ALPHABET.indexOf(char);
    if (value < 0) return zeros;
    if (value !== 0) return zeros + (Math.clz32(value) - 26);
    zeros += 6;
  }
  return zeros;
}

/**
 * The visitors of an issue counted with the older adaptive sample: at level 0 it kept every hash, the sketch's exact
 * set; above, it counted the hashes passing the level (raised while more than 100 would) times 2^level, an estimate
 * kept as the count from before.
 */
export function visitorsOfSample(level: number, hashes: readonly string[]): IssueVisitors | undefined {
  const unique = [...new Set(hashes)];
  if (unique.length === 0) return undefined;
  // Level 0 kept every hash: the sketch's own exact set (past 100, a set two shards grew at once: its registers).
  if (level <= 0) return { sketch: addHashes(emptySketch(), unique) };
  const zeros = unique.map(leadingZeros).sort((a, b) => b - a);
  const cut = zeros[SAMPLE_KEPT];
  const raised = Math.max(level, cut === undefined ? 0 : cut + 1);
  return { sketch: emptySketch(), before: zeros.filter((z) => z >= raised).length * 2 ** raised };
}
