import { addHashes, deflateRegisters, emptySketch, inflateRegisters, wouldChange, type DistinctSketch } from '../../../kernel/distinct-sketch';
import { visitorsOfSample, type IssueVisitors } from '../../../ingest/issues/visitors';
import type { Condition, Expression } from '../expression';

type Item = Record<string, unknown>;

/**
 * How an issue item keeps its visitors (docs/report-issues.md#visitors-affected): the kernel's distinct sketch
 * (lambda/ingest/issues/visitors.ts) in two forms, never both for long:
 *
 *   visitors  a string set of the hashes themselves while there are at most 100 (EXACT_LIMIT): the count is exact;
 *             the same attribute the older sample kept, so an issue it left at level 0 reads as it was;
 *   vsk       past that, the sketch's 16,384 registers (4,096 in an issue whose sketch began before: it keeps that
 *             precision, the hashes behind it being gone), a byte each, deflated (sizes in docs/capacity.md), with
 *             `vver`, its version;
 *   vbase     what an issue counted with the older sample above level 0 (`vlevel`), kept as a count from before.
 *
 * Writes need no read: hashes join the set by `ADD` (a set union, whatever other shards add at once), under the one
 * condition that the item is not an older sample's above level 0; the registers are replaced, which only a write
 * that knows them may do: on condition that their version is the one it read (and that the set it folds in is the
 * size it read: at one version the set only grows). A refused write returns the item, which the tally's next round
 * starts from (lambda/ingest/tally/exactly-once.ts). A writer that knows the registers and finds nothing of its batch
 * would change them writes nothing (`wouldChange`): at a million visitors most batches do not.
 */
export const VISITORS_ATTRIBUTE = 'visitors';
export const VISITOR_LEVEL_ATTRIBUTE = 'vlevel';
export const VISITOR_SKETCH_ATTRIBUTE = 'vsk';
export const VISITOR_VERSION_ATTRIBUTE = 'vver';
export const VISITORS_BEFORE_ATTRIBUTE = 'vbase';
export const VISITOR_ATTRIBUTES = [VISITORS_ATTRIBUTE, VISITOR_LEVEL_ATTRIBUTE, VISITOR_SKETCH_ATTRIBUTE, VISITOR_VERSION_ATTRIBUTE, VISITORS_BEFORE_ATTRIBUTE];

/** The visitor attributes as stored: what a write is shaped by, and what a refused one shows. */
export interface StoredVisitors {
  /** The string set's hashes (in registers mode, those a writer added there since the registers were made). */
  hashes: string[];
  /** The older sample's level; 0 for everything since. */
  level: number;
  registers?: Uint8Array;
  version: number;
  before?: number;
}

/** Registers as stored: a byte each, deflated (the kernel's deflateRegisters). */
export const encodeRegisters = (registers: Uint8Array): Uint8Array => new Uint8Array(deflateRegisters(registers));

/** The registers of a stored value, of either precision; undefined for anything that is not one (damaged, or foreign). */
export const decodeRegisters = (value: unknown): Uint8Array | undefined => (value instanceof Uint8Array ? inflateRegisters(value) : undefined);

/** The visitor attributes of an item, as a writer reads them. */
export function storedVisitorsOf(item: Item): StoredVisitors {
  const set = item[VISITORS_ATTRIBUTE];
  const level = item[VISITOR_LEVEL_ATTRIBUTE];
  const version = item[VISITOR_VERSION_ATTRIBUTE];
  const before = item[VISITORS_BEFORE_ATTRIBUTE];
  const registers = decodeRegisters(item[VISITOR_SKETCH_ATTRIBUTE]);
  return {
    hashes: set instanceof Set || Array.isArray(set) ? [...(set as Iterable<unknown>)].filter((hash): hash is string => typeof hash === 'string') : [],
    level: typeof level === 'number' && Number.isInteger(level) && level > 0 ? level : 0,
    ...(registers ? { registers } : {}),
    version: typeof version === 'number' && Number.isInteger(version) && version > 0 ? version : 0,
    ...(typeof before === 'number' && Number.isFinite(before) && before > 0 ? { before } : {}),
  };
}

/** The sketch a stored form holds: its registers with the set's hashes added (a set a shard grew meanwhile included). */
function sketchOf(stored: StoredVisitors): DistinctSketch {
  return addHashes(stored.registers ? { kind: 'registers', registers: stored.registers } : emptySketch(), stored.hashes);
}

/** An item's visitors as every reader reads them; undefined when it has none. */
export function visitorsOfItem(item: Item): IssueVisitors | undefined {
  const stored = storedVisitorsOf(item);
  if (stored.level > 0) return visitorsOfSample(stored.level, stored.hashes);
  const sketch = sketchOf(stored);
  const empty = sketch.kind === 'exact' && sketch.hashes.length === 0;
  if (stored.before !== undefined) return { sketch, before: stored.before };
  return empty ? undefined : { sketch };
}

/** The visitor attributes of a new item holding these hashes: none for none (DynamoDB stores no empty set). */
export function newItemVisitors(hashes: readonly string[]): Item {
  const sketch = addHashes(emptySketch(), hashes);
  if (sketch.kind === 'registers') return { [VISITOR_SKETCH_ATTRIBUTE]: encodeRegisters(sketch.registers), [VISITOR_VERSION_ATTRIBUTE]: 1 };
  return sketch.hashes.length > 0 ? { [VISITORS_ATTRIBUTE]: new Set(sketch.hashes) } : {};
}

/** The set is the size last read: at one version it only grows, so the same size is the same set. */
const setIs = (expression: Expression, size: number): Condition =>
  size === 0 ? expression.notExists(VISITORS_ATTRIBUTE) : expression.sizeIs(VISITORS_ATTRIBUTE, '=', size);

/** The registers are the version last read (none: there are none). */
const versionIs = (expression: Expression, version: number): Condition =>
  version === 0 ? expression.notExists(VISITOR_SKETCH_ATTRIBUTE) : expression.is(VISITOR_VERSION_ATTRIBUTE, '=', version);

/** Not an older sample above level 0: a hash added to its set would count 2^level times. */
const notSampled = (expression: Expression): Condition =>
  expression.or(expression.notExists(VISITOR_LEVEL_ATTRIBUTE), expression.is(VISITOR_LEVEL_ATTRIBUTE, '=', 0));

/** The registers written, replacing those of `version`; the set folded in removed. */
function replaceRegisters(update: Expression, registers: Uint8Array, version: number, foldedSet: number): Condition[] {
  update.set(VISITOR_SKETCH_ATTRIBUTE, encodeRegisters(registers)).set(VISITOR_VERSION_ATTRIBUTE, version + 1);
  if (foldedSet > 0) update.remove(VISITORS_ATTRIBUTE);
  return [versionIs(update, version), setIs(update, foldedSet)];
}

/**
 * A batch's visitor hashes added in the count's own write, as `known` (what the writer last read; none: nothing yet)
 * says the item keeps them; with no hashes, what a prune tidies (a set past 100, a set beside the registers, an older
 * sample). Sets the update's clauses and answers the conditions that hold what it assumed; nothing when nothing changes.
 */
export function writeVisitors(update: Expression, known: StoredVisitors | undefined, hashes: readonly string[]): Condition[] {
  const stored = known ?? { hashes: [], level: 0, version: 0 };
  if (stored.level > 0) {
    // An older sample above level 0, written to once: its estimate kept as the count from before, a sketch begun.
    const before = (stored.before ?? 0) + (visitorsOfSample(stored.level, stored.hashes)?.before ?? 0);
    const sketch = addHashes(emptySketch(), hashes);
    update.set(VISITORS_BEFORE_ATTRIBUTE, before).remove(VISITOR_LEVEL_ATTRIBUTE);
    if (sketch.kind === 'registers')
      update.set(VISITOR_SKETCH_ATTRIBUTE, encodeRegisters(sketch.registers)).set(VISITOR_VERSION_ATTRIBUTE, 1).remove(VISITORS_ATTRIBUTE);
    else if (sketch.hashes.length > 0) update.set(VISITORS_ATTRIBUTE, new Set(sketch.hashes));
    else update.remove(VISITORS_ATTRIBUTE);
    return [update.is(VISITOR_LEVEL_ATTRIBUTE, '=', stored.level), setIs(update, stored.hashes.length)];
  }
  if (stored.registers) {
    const registers = { kind: 'registers' as const, registers: stored.registers };
    if (stored.hashes.length === 0 && !wouldChange(registers, hashes)) return [];
    const merged = addHashes(registers, [...stored.hashes, ...hashes]) as { registers: Uint8Array };
    return replaceRegisters(update, merged.registers, stored.version, stored.hashes.length);
  }
  const union = addHashes(emptySketch(), [...stored.hashes, ...hashes]);
  if (union.kind === 'registers') return replaceRegisters(update, union.registers, 0, stored.hashes.length);
  const have = new Set(stored.hashes);
  const kept = union.hashes.filter((hash) => !have.has(hash));
  if (kept.length === 0) return [];
  update.add(VISITORS_ATTRIBUTE, new Set(kept));
  return [notSampled(update)];
}
