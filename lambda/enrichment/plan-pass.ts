import { ENRICHABLE_FIELDS, type Contact, type Enrichment } from '../domain/contact';
import type { FoundFields } from './sources/source';

/**
 * What one pass does to one contact, decided from the contact as read and
 * what the sources found. The store applies it only if the contact still has
 * exactly the empty/set fields the plan was made from; otherwise the pass
 * plans again from the contact as it is then. So a caller's value that lands
 * mid-pass is never overwritten, and `enriched` always tells the truth.
 *
 * - miss:     nothing found. No write, not billed (a clean miss is free).
 * - fill:     some found field is empty on the contact. The empty ones are
 *             filled; `enriched: true` and `enrichment` are written. Billed.
 * - complete: values found, but every one of those fields is already set.
 *             Nothing is filled, so `enriched` is not set (it means a pass
 *             filled something) and a contact never enriched keeps neither
 *             `enriched` nor `enrichment` (spec 2.2 rule 2); one already
 *             enriched gets this pass recorded in `enrichment`. Billed: the
 *             pass found something (spec 1: only a clean miss is free).
 */
export type ExpectedState = Partial<Record<keyof FoundFields, boolean>>;

export type PassPlan =
  | { kind: 'miss' }
  | {
      kind: 'fill' | 'complete';
      found: FoundFields;
      /** The found values for fields empty on the contact. */
      fill: FoundFields;
      /** Per found field, whether the plan saw it set: the state the write requires. */
      expectSet: ExpectedState;
      /** The enrichment object to write, or undefined to leave it as it is. */
      enrichment?: Enrichment;
      markEnriched: boolean;
    };

export function planPass(contact: Contact, found: FoundFields, provider: string, at: string): PassPlan {
  const foundFields = ENRICHABLE_FIELDS.filter((field) => found[field] !== undefined);
  if (foundFields.length === 0) return { kind: 'miss' };
  const fill: FoundFields = {};
  const expectSet: ExpectedState = {};
  for (const field of foundFields) {
    const isSet = contact[field] !== undefined && contact[field] !== '';
    expectSet[field] = isSet;
    if (!isSet) fill[field] = found[field];
  }
  const fills = Object.keys(fill).length > 0;
  const enrichment: Enrichment = { provider, at, fields: { ...found } as Record<string, string> };
  return {
    kind: fills ? 'fill' : 'complete',
    found,
    fill,
    expectSet,
    enrichment: fills || contact.enriched === true ? enrichment : undefined,
    markEnriched: fills,
  };
}
