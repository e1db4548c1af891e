import { wasCleared, type ClearedFields } from '../domain/cleared';
import { ENRICHABLE_FIELDS, type Contact, type EnrichableField, type Enrichment } from '../domain/contact';
import type { Findings } from './sources/source';

/** Per found field, whether the plan saw it set on the contact: the state the write requires. */
export type ExpectedState = Partial<Record<EnrichableField, boolean>>;

/** Per field the plan fills, the time of the clear it saw on that field (null: never cleared): the write requires it unchanged. */
export type ExpectedClears = Partial<Record<EnrichableField, string | null>>;

/** What a pass plans from: the contact and what the control room cleared on it. */
export type PlannedContact = Contact & { cleared?: ClearedFields };

/**
 * What one pass does to one contact, decided from the contact as read and
 * what the sources found. The store applies it only if the contact still has
 * exactly the empty/set fields the plan was made from (and the clears it
 * saw); otherwise the pass plans again from the contact as it is then. So a
 * caller's value that lands mid-pass is never overwritten, and `enriched`
 * always tells the truth.
 *
 * A found value that the control room cleared from that field is set aside
 * first (`ignored`), as if no source had found it: it is not filled, not
 * recorded in `enrichment.fields`, and never makes the pass billable.
 *
 * - fill:     some found field is empty on the contact. The empty ones are
 *             filled; `enriched: true` and `enrichment` are written. Billed.
 * - complete: a data source found values, but every one of those fields is
 *             already set. Nothing is filled, so `enriched` is not set (it
 *             means a pass filled something) and a contact never enriched
 *             keeps neither `enriched` nor `enrichment` (docs/control-room.md#enrichment).
 *             Billed: the pass found something (docs/control-room.md#enrichment: only a clean miss is free).
 * - miss:     nothing found, or only values derived from the contact itself
 *             (the name heuristic) that fill nothing. Free.
 * A contact enriched before gets every pass recorded in `enrichment` (`at`
 * and `fields` describe the last pass, docs/control-room.md#enrichment), a miss included.
 */
export interface PassPlan {
  kind: 'fill' | 'complete' | 'miss';
  billed: boolean;
  /** What the sources found, without the values set aside as cleared. */
  found: Findings['found'];
  /** Fields whose found value was cleared from them in the control room: set aside. */
  ignored: EnrichableField[];
  /** The found values for fields empty on the contact. */
  fill: Findings['found'];
  expectSet: ExpectedState;
  expectCleared: ExpectedClears;
  /** The enrichment object to write, or undefined to leave it as it is. */
  enrichment?: Enrichment;
  markEnriched: boolean;
}

export function planPass(contact: PlannedContact, findings: Findings, provider: string, at: string): PassPlan {
  const found: Findings['found'] = {};
  const ignored: EnrichableField[] = [];
  for (const field of ENRICHABLE_FIELDS) {
    const value = findings.found[field];
    if (value === undefined) continue;
    if (wasCleared(contact.cleared, field, value)) ignored.push(field);
    else found[field] = value;
  }
  const fromData = findings.fromData ?? (findings.lookedUp ? (Object.keys(findings.found) as EnrichableField[]) : []);
  const lookedUp = fromData.some((field) => found[field] !== undefined);

  const fill: Findings['found'] = {};
  const expectSet: ExpectedState = {};
  const expectCleared: ExpectedClears = {};
  for (const field of ENRICHABLE_FIELDS) {
    if (found[field] === undefined) continue;
    const isSet = contact[field] !== undefined && contact[field] !== '';
    expectSet[field] = isSet;
    if (!isSet) {
      fill[field] = found[field];
      expectCleared[field] = contact.cleared?.[field]?.at ?? null;
    }
  }
  const fills = Object.keys(fill).length > 0;
  const kind = fills ? 'fill' : lookedUp ? 'complete' : 'miss';
  const record = fills || contact.enriched === true;
  return {
    kind,
    billed: kind !== 'miss',
    found,
    ignored,
    fill,
    expectSet,
    expectCleared,
    enrichment: record ? { provider, at, fields: { ...found } as Record<string, string> } : undefined,
    markEnriched: fills,
  };
}
