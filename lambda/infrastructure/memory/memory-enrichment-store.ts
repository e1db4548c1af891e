import { CONTACT_ID_PREFIX } from '../../kernel/contact-id-digest';
import { applyPassTo, passStillApplies } from '../../contacts/enrichment/apply-pass';
import { contactCursor } from '../../kernel/cursor';
import type { ApplyOutcome, ContactPage, EnrichmentStore, PassWrite, StoredContact, UsageRecord } from '../../contacts/enrichment/ports';
import type { MemoryContactStore } from './memory-contact-store';

/**
 * EnrichmentStore in memory, over the contacts of a MemoryContactStore (so
 * upserts and passes meet on the same records): the pass's write rule
 * (passStillApplies, applyPassTo), billing per period, and passId markers.
 */
export class MemoryEnrichmentStore implements EnrichmentStore {
  private readonly billed = new Map<string, UsageRecord>();
  /** Applied passes by `<factory>/<contact>#<passId>`: what DynamoDB keeps as pass items. */
  readonly passIds = new Map<string, { passId: string; at: string }>();

  constructor(private readonly contacts: MemoryContactStore) {}

  async getContact(factoryId: string, id: string): Promise<StoredContact | undefined> {
    const contact = this.contacts.contacts.get(`${factoryId}/${id}`);
    return contact && structuredClone(contact as StoredContact);
  }

  async applyPass(write: PassWrite): Promise<ApplyOutcome> {
    const key = `${write.factoryId}/${write.contact.id}`;
    const marker = write.passId === undefined ? undefined : `${key}#${write.passId}`;
    if (write.plan.billed && marker !== undefined && this.passIds.has(marker)) return { outcome: 'duplicate' };
    if (!write.plan.billed && !write.plan.enrichment) return { outcome: 'applied' }; // nothing to write
    const current = this.contacts.contacts.get(key) as StoredContact | undefined;
    if (!passStillApplies(current, write)) {
      return { outcome: 'conflict', reason: 'changed', current: current && structuredClone(current) };
    }
    this.contacts.contacts.set(key, applyPassTo(current, write));
    if (write.plan.billed) {
      const usageKey = `${write.factoryId}/${write.period}`;
      const usage = this.billed.get(usageKey) ?? { period: write.period, billedPasses: 0 };
      usage.billedPasses += 1;
      usage.lastPassAt = write.at;
      this.billed.set(usageKey, usage);
      if (marker !== undefined && write.passId !== undefined) this.passIds.set(marker, { passId: write.passId, at: write.at });
    }
    return { outcome: 'applied' };
  }

  async pageOfContacts(factoryId: string, cursor: string | undefined, limit: number): Promise<ContactPage> {
    const after = cursor === undefined ? undefined : contactCursor.decode(cursor, factoryId);
    const ids = this.idsOf(factoryId).filter((id) => after === undefined || id > after);
    const scanned = ids.slice(0, limit);
    const contacts = scanned
      .map((id) => this.contacts.contacts.get(`${factoryId}/${id}`) as StoredContact)
      .filter((contact) => contact.enriched === undefined && contact.enrichmentCheckedAt === undefined)
      .map((contact) => structuredClone(contact));
    const last = scanned[scanned.length - 1];
    return { contacts, scanned: scanned.length, next: ids.length > limit && last !== undefined ? contactCursor.encode(factoryId, last) : undefined };
  }

  async countContacts(factoryId: string): Promise<number> {
    return this.idsOf(factoryId).length;
  }

  async usage(factoryId: string): Promise<UsageRecord[]> {
    return [...this.billed.entries()]
      .filter(([key]) => key.startsWith(`${factoryId}/`))
      .map(([, usage]) => ({ ...usage }))
      .sort((a, b) => a.period.localeCompare(b.period));
  }

  private idsOf(factoryId: string): string[] {
    const prefix = `${factoryId}/${CONTACT_ID_PREFIX}`;
    return [...this.contacts.contacts.keys()]
      .filter((key) => key.startsWith(prefix))
      .map((key) => key.slice(factoryId.length + 1))
      .sort();
  }
}
