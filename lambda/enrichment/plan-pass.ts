import { ENRICHABLE_FIELDS, type Contact, type Enrichment } from '../domain/contact';
import type { Findings } from './sources/source';

/** Per found field, whether the plan saw it set on the contact: the state the write requires. */
export type ExpectedState = Partial<Record<(typeof ENRICHABLE_FIELDS)[number], boolean>>;

/**
 * What one pass does to one contact, decided from the contact as read and
 * what the sources found. The store applies it only if the contact still has
 * exactly the empty/set fields the plan was made from; otherwise the pass
 * plans again from the contact as it is then. So a caller's value that lands
 * mid-pass is never overwritten, and `enriched` always tells the truth.
 *
 * - fill:     some found field is empty on the contact. The empty ones are
 *             filled; `enriched: true` and `enrichment` are written. Billed.
 * - complete: a data source found values, but every one of those fields is
 *             already set. Nothing is filled, so `enriched` is not set (it
 *             means a pass filled something) and a contact never enriched
 *             keeps neither `enriched` nor `enrichment` (spec 2.2 rule 2).
 *             Billed: the pass found something (spec 1: only a clean miss is free).
 * - miss:     nothing found, or only values derived from the contact itself
 *             (the name heuristic) that fill nothing. Free.
 * A contact enriched before gets every pass recorded in `enrichment` (`at`
 * and `fields` describe the last pass, spec 2.2), a miss included.
 */
export interface PassPlan {
  kind: 'fill' | 'complete' | 'miss';
  billed: boolean;
  found: Findings['found'];
  /** The found values for fields empty on the contact. */
  fill: Findings['found'];
  expectSet: ExpectedState;
  /** The enrichment object to write, or undefined to leave it as it is. */
  enrichment?: Enrichment;
  markEnriched: boolean;
}

export function planPass(contact: Contact, findings: Findings, provider: string, at: string): PassPlan {
  const { found } = findings;
  const fill: Findings['found'] = {};
  const expectSet: ExpectedState = {};
  for (const field of ENRICHABLE_FIELDS) {
    if (found[field] === undefined) continue;
    const isSet = contact[field] !== undefined && contact[field] !== '';
    expectSet[field] = isSet;
    if (!isSet) fill[field] = found[field];
  }
  const fills = Object.keys(fill).length > 0;
  const kind = fills ? 'fill' : findings.lookedUp ? 'complete' : 'miss';
  const record = fills || contact.enriched === true;
  return {
    kind,
    billed: kind !== 'miss',
    found,
    fill,
    expectSet,
    enrichment: record ? { provider, at, fields: { ...found } as Record<string, string> } : undefined,
    markEnriched: fills,
  };
}
