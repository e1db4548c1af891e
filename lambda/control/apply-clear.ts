import type { ClearableField } from '../contacts/domain/cleared';
import type { StoredContact } from '../contacts/enrichment/ports';
import type { ClearPlan } from './plan-clear';

/**
 * Whether a planned clear may still be written on the contact as it is now:
 * it exists, every field to remove holds the value the plan saw, its
 * `cleared` map is there or not as the plan saw it, and the enrichment record
 * it trims is the one it saw. The DynamoDB store writes the same rule as the
 * clear's ConditionExpression.
 */
export function clearStillApplies(current: StoredContact | undefined, plan: ClearPlan): current is StoredContact {
  if (!current) return false;
  for (const [field, value] of Object.entries(plan.remove)) {
    if (current[field as ClearableField] !== value) return false;
  }
  if ((current.cleared !== undefined) !== plan.hadCleared) return false;
  if (plan.dropFound.length > 0 && current.enrichment?.at !== plan.enrichmentAt) return false;
  return true;
}

/**
 * The contact after the clear: the fields removed, what was cleared recorded
 * under `cleared`, cleared values dropped from `enrichment.fields`, and
 * `updatedAt` moved (`createdAt`, `enriched` and the rest unchanged).
 */
export function applyClearTo(current: StoredContact, plan: ClearPlan): StoredContact {
  // As the store writes it: entries added to the map the plan saw, or a new map when it saw none.
  const cleared = plan.hadCleared ? { ...current.cleared, ...plan.records } : { ...plan.records };
  const next: StoredContact = { ...current, updatedAt: plan.at, cleared };
  for (const field of Object.keys(plan.remove) as ClearableField[]) delete next[field];
  if (plan.dropFound.length > 0 && current.enrichment) {
    const fields = { ...current.enrichment.fields };
    for (const field of plan.dropFound) delete fields[field];
    next.enrichment = { ...current.enrichment, fields };
  }
  return next;
}
