import type { VendorRecords } from '../../control/ports';
import type { StoredEmail } from '../../kernel/email';
import { SuppressionKeys } from '../../contacts/domain/vendor-suppression';
import type { ReferenceRecord } from '../../contacts/enrichment/sources/reference-dataset';
import type { EnrichmentSource, FoundFields, LookupSubject } from '../../contacts/enrichment/sources/source';
import { MemoryPersonSecret } from './memory-person-secret';

/**
 * The vendor's reference dataset in memory: what `enrich -- load-dataset`
 * would have loaded, by lowercased email, and the suppressions of erased
 * people (keyed hashes, as the reference table holds them), with the rules
 * of lambda/infrastructure/store/reference: a load skips a suppressed person, an erasure
 * suppresses first and then deletes.
 */
export class MemoryReferenceDataset implements EnrichmentSource, VendorRecords {
  readonly name = 'reference-dataset';
  readonly people = new Map<string, FoundFields>();
  /** Suppression keys, with when each was made. */
  readonly suppressed = new Map<string, string>();
  private readonly keys = new SuppressionKeys(new MemoryPersonSecret());

  /** Puts a person in unconditionally, as a test's seed (a load goes through `load`). */
  add(email: string, fields: FoundFields): this {
    this.people.set(email.toLowerCase(), { ...fields });
    return this;
  }

  /** A load's write (../store/reference/reference-writer.ts): the records of people not suppressed; the emails left out. */
  async load(records: readonly ReferenceRecord[]): Promise<{ written: number; suppressed: string[] }> {
    const suppressed: string[] = [];
    for (const { email, ...fields } of records) {
      if (this.suppressed.has(await this.keys.keyOf(email))) suppressed.push(email);
      else this.people.set(email, fields);
    }
    return { written: records.length - suppressed.length, suppressed };
  }

  async lookup({ email }: LookupSubject): Promise<FoundFields> {
    return { ...this.people.get(email.toLowerCase()) };
  }

  async recordOf(email: StoredEmail): Promise<ReferenceRecord | undefined> {
    const fields = this.people.get(email);
    return fields ? { email, ...fields } : undefined;
  }

  async erase(email: StoredEmail, at: string): Promise<boolean> {
    const key = await this.keys.keyOf(email);
    if (!this.suppressed.has(key)) this.suppressed.set(key, at);
    return this.people.delete(email);
  }
}
