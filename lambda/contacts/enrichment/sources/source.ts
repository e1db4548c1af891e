import type { EnrichableField } from '../../domain/contact';

/** Field values a source found for one contact. */
export type FoundFields = Partial<Record<EnrichableField, string>>;

/** What a source may look at: the contact's identity only. */
export interface LookupSubject {
  email: string;
}

/**
 * A data source behind enrichment. Sources can be added, removed or swapped
 * without touching the pass: it asks each one in order and keeps, per field,
 * the first value found. Their names never reach the API (docs/control-room.md#enrichment: the
 * provider shown is always the platform's own name).
 */
export interface EnrichmentSource {
  readonly name: string;
  /**
   * True for a source that only derives values from the contact itself (a
   * name from the address): its finds fill empty fields, but on their own
   * never make a pass billable when they fill nothing.
   */
  readonly derived?: boolean;
  lookup(subject: LookupSubject): Promise<FoundFields>;
}

/** What all sources found for one contact. */
export interface Findings {
  found: FoundFields;
  /** A non-derived source (a data lookup) found at least one value. */
  lookedUp: boolean;
  /**
   * The fields of `found` whose value came from a data source, not a derived
   * one: when a value the control room cleared is set aside, what is left
   * decides whether the pass still looked something up. Absent: all of
   * `found` when `lookedUp`, none otherwise.
   */
  fromData?: EnrichableField[];
}
