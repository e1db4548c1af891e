import type { EnrichmentSource, FoundFields, LookupSubject } from '../enrichment/sources/source';

/** The vendor's reference dataset in memory: what `enrich -- load-dataset` would have loaded, by lowercased email. */
export class MemoryReferenceDataset implements EnrichmentSource {
  readonly name = 'reference-dataset';
  readonly people = new Map<string, FoundFields>();

  add(email: string, fields: FoundFields): this {
    this.people.set(email.toLowerCase(), { ...fields });
    return this;
  }

  async lookup({ email }: LookupSubject): Promise<FoundFields> {
    return { ...this.people.get(email.toLowerCase()) };
  }
}
