/**
 * The ceiling's side of a write: which partitions it will charge and whether
 * they are open (buckets.ts), its expected cost taken at once and given back
 * once the actual cost is known, and the actual cost charged and counted.
 */
import type { Resolved, Semantics } from './context';
import { appliedWriteCharges, partitionId, predictedCharges, type Charge, type Partition } from './cost-model';
import type { ThrottlingReason } from './service-errors';
import type { TableSchema } from './table-schemas';
import { predictUpdate } from './update-prediction';
import type { Item } from './wire';

/** The item a write will leave, as far as it can be told before it runs. */
function predicted(action: Resolved, before: Item | undefined): { after: Item | undefined; unknown: Set<string> } {
  if (action.kind === 'put') return { after: action.item, unknown: new Set() };
  if (action.kind === 'delete') return { after: undefined, unknown: new Set() };
  return predictUpdate(action.update ?? {}, action.key, before);
}

/** The partitions over their ceiling among those this write will charge (none when the ceiling is off), and what it is expected to cost. */
export function admission(
  semantics: Semantics,
  action: Resolved,
  before: Item | undefined,
  transactional: boolean,
): { closed: Partition[]; expected: Charge[] } {
  if (action.kind === 'check' || action.kind === 'get') return { closed: [], expected: [] };
  const { after, unknown } = predicted(action, before);
  const expected = predictedCharges(action.schema, action.key, before, after, unknown, transactional);
  if (!semantics.config().throttling) return { closed: [], expected };
  return { closed: expected.map((charge) => charge.partition).filter((partition) => !semantics.buckets.admits(partitionId(partition))), expected };
}

/** Takes an admitted write's expected cost from its buckets now; the returned function gives it back (once the actual cost is charged, or the write failed). */
export function reserve(semantics: Semantics, expected: Charge[]): () => void {
  for (const { partition, units } of expected) semantics.buckets.charge(partitionId(partition), units);
  let returned = false;
  return () => {
    if (returned) return;
    returned = true;
    for (const { partition, units } of expected) semantics.buckets.charge(partitionId(partition), -units);
  };
}

export function throttlingReason(schema: TableSchema, partition: Partition): ThrottlingReason {
  const index = schema.indexes.find((candidate) => candidate.name === partition.index);
  return index
    ? { reason: 'IndexWriteKeyRangeThroughputExceeded', resource: index.arn }
    : { reason: 'TableWriteKeyRangeThroughputExceeded', resource: schema.arn };
}

export function charge(semantics: Semantics, charges: Charge[]): void {
  for (const { partition, units } of charges) {
    semantics.buckets.charge(partitionId(partition), units);
    semantics.stats.record(partition, { writes: 1, units });
  }
}

/** Charges and counts each applied action's actual cost. */
export function chargeApplied(
  semantics: Semantics,
  actions: Resolved[],
  before: Map<string, Item | undefined>,
  after: Map<string, Item | undefined>,
  transactional: boolean,
): void {
  for (const action of actions) {
    if (action.kind === 'check' || action.kind === 'get') continue;
    charge(semantics, appliedWriteCharges(action.schema, action.key, before.get(action.id), after.get(action.id), transactional));
  }
}
