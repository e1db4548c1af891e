import type { EnrichableField } from '../domain/contact';
import type { PassWrite, StoredContact } from './ports';

/**
 * Whether a planned pass may still be written on the contact as it is now:
 * the contact exists, every field the plan looked at is still set or empty as
 * it saw it, no field it fills was cleared in the control room since, its
 * `enriched` state is unchanged, and (bulk runs) no billed pass has marked
 * it since. The DynamoDB store writes the same rule as the pass's
 * ConditionExpression.
 */
export function passStillApplies(current: StoredContact | undefined, write: PassWrite): current is StoredContact {
  if (!current) return false;
  for (const [field, wasSet] of Object.entries(write.plan.expectSet)) {
    const isSet = current[field as keyof StoredContact] !== undefined;
    if (isSet !== wasSet) return false;
  }
  for (const [field, clearedAt] of Object.entries(write.plan.expectCleared)) {
    if ((current.cleared?.[field as EnrichableField]?.at ?? null) !== clearedAt) return false;
  }
  if ((current.enriched === true) !== (write.contact.enriched === true)) return false;
  if (write.bulk && current.enrichmentCheckedAt !== undefined) return false;
  return true;
}

/**
 * The contact after the pass: found values fill only fields still empty,
 * `updatedAt` moves, and the enrichment record and marks are written as the
 * plan says (lambda/contacts/enrichment/plan-pass.ts).
 */
export function applyPassTo(current: StoredContact, write: PassWrite): StoredContact {
  const { plan } = write;
  const next: StoredContact = { ...current, updatedAt: write.at };
  for (const [field, value] of Object.entries(plan.fill)) {
    const key = field as keyof typeof plan.fill;
    next[key] ??= value;
  }
  if (plan.markEnriched) next.enriched = true;
  if (plan.enrichment) next.enrichment = plan.enrichment;
  if (plan.billed) next.enrichmentCheckedAt = write.at;
  return next;
}
