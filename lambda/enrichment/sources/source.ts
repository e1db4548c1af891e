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
 * the first value found. Their names never reach the API (spec 2.2: the
 * provider shown is always the platform's own name).
 */
export interface EnrichmentSource {
  readonly name: string;
  lookup(subject: LookupSubject): Promise<FoundFields>;
}
