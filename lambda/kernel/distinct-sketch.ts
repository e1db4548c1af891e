import { createHash } from 'node:crypto';

/**
 * A count of distinct things (an issue's visitors, a release's users) that
 * never stores the things themselves beyond a small exact set, and that
 * merges: two sketches of two sets make the sketch of their union, whatever
 * the order, the batching or the repeats. Exact up to EXACT_LIMIT distinct
 * hashes (the hashes themselves are kept); beyond, a HyperLogLog of
 * 2^PRECISION registers read with Ertl's improved estimator ("New
 * cardinality estimation algorithms for HyperLogLog sketches", 2017), which
 * needs no empirical bias tables: its standard error is about 1.04/√4096 =
 * 1.6 % over the whole range (measured in test/lambda/kernel/distinct-sketch.test.ts).
 *
 * What goes in is a hash: at least 8 base64url characters (48 bits) of a
 * keyed or plain SHA-256, as visitor hashes are (lambda/ingest/visitor-hash.ts);
 * `sketchHashOf` makes one of any text. The first 12 bits choose the
 * register, the next 36 its rank.
 */

/** Distinct hashes kept as they are: the count is exact up to this many. */
export const EXACT_LIMIT = 100;
/** log2 of the registers: 4096 of them, 3,072 bytes packed. */
export const PRECISION = 12;
const REGISTERS = 1 << PRECISION;
/** Bits of a hash after the register index: a register holds a rank from 0 to RANK_BITS + 1. */
const RANK_BITS = 36;
/** Characters of a hash the sketch reads (48 bits). */
export const SKETCH_HASH_LENGTH = 8;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const VALUE = new Int8Array(128).fill(-1);
for (const [index, char] of [...ALPHABET].entries()) VALUE[char.charCodeAt(0)] = index;

/** The exact set while it is small; the registers once it is not. Never both. */
export type DistinctSketch = { kind: 'exact'; hashes: string[] } | { kind: 'registers'; registers: Uint8Array };

export const emptySketch = (): DistinctSketch => ({ kind: 'exact', hashes: [] });

/** A sketch hash of any text (a user id, an email's key): 8 base64url characters of its SHA-256. */
export const sketchHashOf = (text: string): string => createHash('sha256').update(text).digest('base64url').slice(0, SKETCH_HASH_LENGTH);

/** Whether `hash` is one the sketch can read: SKETCH_HASH_LENGTH or more base64url characters. */
export function isSketchHash(hash: string): boolean {
  if (hash.length < SKETCH_HASH_LENGTH) return false;
  for (let i = 0; i < SKETCH_HASH_LENGTH; i += 1) {
    const code = hash.charCodeAt(i);
    if (code >= 128 || VALUE[code] === -1) return false;
  }
  return true;
}

/** The register a hash falls in (its first 12 bits) and its rank there (1 + the leading zeros of its next 36 bits), packed as index * 64 + rank. */
function place(hash: string): number {
  const index = ((VALUE[hash.charCodeAt(0)] as number) << 6) | (VALUE[hash.charCodeAt(1)] as number);
  let rank = 1;
  for (let i = 2; i < SKETCH_HASH_LENGTH; i += 1) {
    const sextet = VALUE[hash.charCodeAt(i)] as number;
    if (sextet !== 0) return index * 64 + rank + Math.clz32(sextet) - 26;
    rank += 6;
  }
  return index * 64 + rank;
}

function registersOf(hashes: Iterable<string>, into: Uint8Array = new Uint8Array(REGISTERS)): Uint8Array {
  for (const hash of hashes) {
    if (!isSketchHash(hash)) continue;
    const placed = place(hash);
    const index = placed >> 6;
    const rank = placed & 63;
    if (rank > (into[index] as number)) into[index] = rank;
  }
  return into;
}

/** The sketch with these hashes added (hashes it cannot read are left out; see isSketchHash). */
export function addHashes(sketch: DistinctSketch, hashes: Iterable<string>): DistinctSketch {
  if (sketch.kind === 'registers') return { kind: 'registers', registers: registersOf(hashes, Uint8Array.from(sketch.registers)) };
  const list = Array.isArray(hashes) ? (hashes as readonly string[]) : [...hashes];
  const union = new Set(sketch.hashes);
  for (const hash of list) {
    if (!isSketchHash(hash)) continue;
    union.add(hash.length === SKETCH_HASH_LENGTH ? hash : hash.slice(0, SKETCH_HASH_LENGTH));
    // Past the exact set: the rest go straight into registers, the set is not grown for nothing.
    if (union.size > EXACT_LIMIT) return { kind: 'registers', registers: registersOf(list, registersOf(union)) };
  }
  return { kind: 'exact', hashes: [...union].sort() };
}

/** The sketch of the union of two sets. */
export function mergeSketches(a: DistinctSketch, b: DistinctSketch): DistinctSketch {
  if (a.kind === 'exact') return addHashes(b, a.hashes);
  if (b.kind === 'exact') return addHashes(a, b.hashes);
  const registers = Uint8Array.from(a.registers);
  for (let i = 0; i < REGISTERS; i += 1) if ((b.registers[i] as number) > (registers[i] as number)) registers[i] = b.registers[i] as number;
  return { kind: 'registers', registers };
}

/** Whether adding these hashes would change the sketch: a writer skips the write when not. */
export function wouldChange(sketch: DistinctSketch, hashes: Iterable<string>): boolean {
  if (sketch.kind === 'exact') {
    const known = new Set(sketch.hashes);
    for (const hash of hashes) if (isSketchHash(hash) && !known.has(hash.slice(0, SKETCH_HASH_LENGTH))) return true;
    return false;
  }
  for (const hash of hashes) {
    if (!isSketchHash(hash)) continue;
    const placed = place(hash);
    if ((placed & 63) > (sketch.registers[placed >> 6] as number)) return true;
  }
  return false;
}

/** σ(x) of Ertl's estimator: the correction for registers still at zero. */
function sigma(x: number): number {
  if (x === 1) return Number.POSITIVE_INFINITY;
  let y = 1;
  let z = x;
  let previous: number;
  let power = x;
  do {
    power *= power;
    previous = z;
    z += power * y;
    y += y;
  } while (z !== previous);
  return z;
}

/** τ(x) of Ertl's estimator: the correction for registers at their largest rank. */
function tau(x: number): number {
  if (x === 0 || x === 1) return 0;
  let y = 1;
  let z = 1 - x;
  let previous: number;
  let root = x;
  do {
    root = Math.sqrt(root);
    previous = z;
    y *= 0.5;
    z -= (1 - root) ** 2 * y;
  } while (z !== previous);
  return z / 3;
}

export interface DistinctCount {
  count: number;
  /** False once the sketch keeps registers: the count is an estimate (about 1.6 % standard error). */
  exact: boolean;
}

/** How many distinct hashes went in: exact while the set is kept, else Ertl's estimate from the registers. */
export function distinctCount(sketch: DistinctSketch | undefined): DistinctCount {
  if (!sketch) return { count: 0, exact: true };
  if (sketch.kind === 'exact') return { count: sketch.hashes.length, exact: true };
  const histogram = new Array<number>(RANK_BITS + 2).fill(0);
  for (const value of sketch.registers) histogram[value] = (histogram[value] as number) + 1;
  const m = REGISTERS;
  let z = m * tau(1 - (histogram[RANK_BITS + 1] as number) / m);
  for (let k = RANK_BITS; k >= 1; k -= 1) z = 0.5 * (z + (histogram[k] as number));
  z += m * sigma((histogram[0] as number) / m);
  const estimate = (m * m) / (2 * Math.LN2 * z);
  // Past the exact set the true count is above EXACT_LIMIT: an estimate below it says no more than that.
  return { count: Math.max(EXACT_LIMIT + 1, Math.round(estimate)), exact: false };
}

/** Registers packed 6 bits each (ranks are at most 37), as base64url: 4,096 characters. */
export function encodeRegisters(registers: Uint8Array): string {
  const bytes = new Uint8Array((REGISTERS * 6) / 8);
  for (let i = 0; i < REGISTERS; i += 4) {
    const [a = 0, b = 0, c = 0, d = 0] = registers.subarray(i, i + 4);
    const at = (i / 4) * 3;
    bytes[at] = (a << 2) | (b >> 4);
    bytes[at + 1] = ((b & 15) << 4) | (c >> 2);
    bytes[at + 2] = ((c & 3) << 6) | d;
  }
  return Buffer.from(bytes).toString('base64url');
}

/** The registers of encodeRegisters' text; undefined when the text is not one (a damaged or foreign value). */
export function decodeRegisters(text: string): Uint8Array | undefined {
  const bytes = Buffer.from(text, 'base64url');
  if (bytes.length !== (REGISTERS * 6) / 8) return undefined;
  const registers = new Uint8Array(REGISTERS);
  for (let at = 0, i = 0; at < bytes.length; at += 3, i += 4) {
    const [x = 0, y = 0, z = 0] = bytes.subarray(at, at + 3);
    registers[i] = x >> 2;
    registers[i + 1] = ((x & 3) << 4) | (y >> 4);
    registers[i + 2] = ((y & 15) << 2) | (z >> 6);
    registers[i + 3] = z & 63;
  }
  return registers.some((rank) => rank > RANK_BITS + 1) ? undefined : registers;
}
