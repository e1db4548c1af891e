import type { ClearableField, ClearedRecord } from '../contacts/domain/cleared';
import { ENRICHABLE_FIELDS, type EnrichableField } from '../contacts/domain/contact';
import type { StoredContact } from '../contacts/enrichment/ports';

/** What the operator asked: the fields to clear, who asks (IAM principal), why, and when. */
export interface ClearRequest {
  fields: ClearableField[];
  by: string;
  reason?: string;
  at: string;
}

/** The values the clear is about: those the fields held when the clear first read the contact. */
export type ClearTargets = Partial<Record<ClearableField, string>>;

/**
 * What one clear does to one contact, decided from the contact as read. The
 * store writes it only if every field it removes still holds the value the
 * plan saw (and the rest of what the plan relied on is unchanged); otherwise
 * the clear plans again from the contact as it is then. A clear removes only
 * values it saw: a caller's write that lands in between is kept (`changed`).
 */
export interface ClearPlan {
  at: string;
  /** The fields to remove, each with the value it must still hold. */
  remove: Partial<Record<ClearableField, string>>;
  /** Asked for, but empty: nothing to clear. */
  alreadyEmpty: ClearableField[];
  /** Asked for, but holding another value than the one the clear saw first (a write landed): kept. */
  changed: ClearableField[];
  /** What the contact keeps about each field removed (under `cleared`). */
  records: Partial<Record<ClearableField, ClearedRecord>>;
  /** Whether the contact had a `cleared` map: the write adds to it, or creates it. */
  hadCleared: boolean;
  /**
   * Removed values that the last enrichment pass found (in `enrichment.fields`):
   * dropped from there too, so nothing the API shows repeats them. The write
   * requires that record unchanged (`enrichmentAt`).
   */
  dropFound: EnrichableField[];
  enrichmentAt?: string;
}

const isEnrichable = (field: ClearableField): field is EnrichableField => (ENRICHABLE_FIELDS as readonly string[]).includes(field);

/** The values `fields` hold on the contact: what a clear targets when it first reads it. */
export function clearTargets(contact: StoredContact, fields: ClearableField[]): ClearTargets {
  const targets: ClearTargets = {};
  for (const field of fields) {
    const value = contact[field];
    if (typeof value === 'string' && value !== '') targets[field] = value;
  }
  return targets;
}

export function planClear(contact: StoredContact, request: ClearRequest, targets: ClearTargets = clearTargets(contact, request.fields)): ClearPlan {
  const plan: ClearPlan = {
    at: request.at,
    remove: {},
    alreadyEmpty: [],
    changed: [],
    records: {},
    hadCleared: contact.cleared !== undefined,
    dropFound: [],
  };
  for (const field of request.fields) {
    const value = contact[field];
    const target = targets[field];
    if (typeof value !== 'string' || value === '') plan.alreadyEmpty.push(field);
    else if (value !== target) plan.changed.push(field);
    else {
      plan.remove[field] = value;
      plan.records[field] = { value, at: request.at, by: request.by, ...(request.reason ? { reason: request.reason } : {}) };
      if (isEnrichable(field) && contact.enrichment?.fields[field] === value) plan.dropFound.push(field);
    }
  }
  if (plan.dropFound.length > 0) plan.enrichmentAt = contact.enrichment?.at;
  return plan;
}

/** True when the plan removes something (otherwise nothing is written, and `updatedAt` stays). */
export const clearWrites = (plan: ClearPlan): boolean => Object.keys(plan.remove).length > 0;
