/**
 * Visitors affected by an issue (docs/report-issues.md#visitors-affected),
 * counted as privacy-first analytics count them: each event carries a short
 * hash of its client's address and user agent under a salt replaced every
 * day (lambda/ingest/visitor-hash.ts); an issue keeps a sample of those
 * hashes.
 *
 * The sample is adaptive sampling (Flajolet, 1990; Wegman): it keeps every
 * hash whose first `level` bits are zero. At level 0 that is every hash, so
 * the count is exact; once more than VISITORS_KEPT hashes would be kept,
 * the level goes up by one (half of them dropped) until at most that many
 * remain, and the count is the hashes kept times 2^level.
 *
 * What a sample holds depends only on the set of hashes ever added, never on
 * the order, the batching or duplicates (a hash passing the final level
 * passed every level before it): so a batch counted twice, two shards' writes
 * in either order, and the in-memory store all end with the same sample
 * (`canonical`). The DynamoDB tally adds hashes with `ADD` on a string set
 * under the condition that the level is the one it filtered by, and raises
 * the level with a write guarded by the level and the set's size
 * (lambda/infrastructure/store/reports/tally-writes.ts).
 */

/** Hashes kept at most: exact up to this many visitors; beyond, an estimate. */
export const VISITORS_KEPT = 100;
/** Characters of a visitor hash: base64url, 48 bits. */
export const VISITOR_HASH_LENGTH = 8;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export interface VisitorSample {
  /** Hashes kept: those whose first `level` bits are zero. */
  level: number;
  hashes: string[];
}

export interface VisitorCount {
  count: number;
  /** False once the sample keeps only a share of the hashes: the count is an estimate. */
  exact: boolean;
}

/** Leading zero bits of a hash (its 6-bit characters in order), at most 48. */
export function leadingZeros(hash: string): number {
  let zeros = 0;
  for (const char of hash) {
    const value = ALPHABET.indexOf(char);
    if (value < 0) return zeros;
    if (value === 0) {
      zeros += 6;
      continue;
    }
    return zeros + (Math.clz32(value) - 26);
  }
  return zeros;
}

export const passes = (hash: string, level: number): boolean => leadingZeros(hash) >= level;

/** The lowest level from `level` on at which at most VISITORS_KEPT of these hashes pass. */
export function levelFor(hashes: Iterable<string>, level: number): number {
  const zeros = [...hashes].map(leadingZeros).sort((a, b) => b - a);
  // The (KEPT+1)-th most zeros: one level above it keeps at most KEPT.
  const cut = zeros[VISITORS_KEPT];
  return cut === undefined ? level : Math.max(level, cut + 1);
}

/** The sample holding these hashes at this level or above: those passing, sorted. */
export function canonical(sample: VisitorSample): VisitorSample {
  const unique = [...new Set(sample.hashes)];
  const level = levelFor(unique, sample.level);
  return { level, hashes: unique.filter((hash) => passes(hash, level)).sort() };
}

/** The sample after some more hashes. */
export function addVisitors(sample: VisitorSample | undefined, hashes: readonly string[]): VisitorSample {
  const level = sample?.level ?? 0;
  return canonical({ level, hashes: [...(sample?.hashes ?? []), ...hashes.filter((hash) => passes(hash, level))] });
}

/** Visitors counted: exact at level 0, else the kept hashes times 2^level. */
export function visitorCount(sample: VisitorSample | undefined): VisitorCount {
  if (!sample) return { count: 0, exact: true };
  const { level, hashes } = canonical(sample);
  return { count: hashes.length * 2 ** level, exact: level === 0 };
}
