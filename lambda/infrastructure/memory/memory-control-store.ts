import { applyClearTo, clearStillApplies } from '../../control/apply-clear';
import { matchesFilter } from '../../control/contact-filter';
import type { ClearOutcome, ClearWrite, Company, ContactQuery, ControlStore, Page, PassMarker } from '../../control/ports';
import { CONTACT_ID_PREFIX } from '../../kernel/contact-id-digest';
import { companyCursor, contactCursor } from '../../kernel/cursor';
import type { StoredContact } from '../../contacts/enrichment/ports';
import type { MemoryContactStore } from './memory-contact-store';
import type { MemoryEnrichmentStore } from './memory-enrichment-store';

/**
 * ControlStore in memory, over the maps of a MemoryContactStore (so upserts,
 * passes and clears meet on the same records) and the pass markers of a
 * MemoryEnrichmentStore: the clear's write rule (clearStillApplies,
 * applyClearTo), the list filter (matchesFilter) and id-ordered pages.
 */
export class MemoryControlStore implements ControlStore {
  constructor(
    private readonly contacts: MemoryContactStore,
    private readonly enrichment?: MemoryEnrichmentStore,
  ) {}

  async getContact(factoryId: string, id: string): Promise<StoredContact | undefined> {
    const contact = this.contacts.contacts.get(`${factoryId}/${id}`);
    return contact && structuredClone(contact as StoredContact);
  }

  async listContacts(factoryId: string, query: ContactQuery): Promise<Page<StoredContact>> {
    const after = query.cursor === undefined ? undefined : contactCursor.decode(query.cursor, factoryId);
    const all = this.contactsOf(factoryId).filter((contact) => after === undefined || contact.id > after);
    const items: StoredContact[] = [];
    for (const [index, contact] of all.entries()) {
      if (!matchesFilter(contact, query.filter)) continue;
      items.push(structuredClone(contact));
      if (items.length === query.limit) {
        return { items, next: index < all.length - 1 ? contactCursor.encode(factoryId, contact.id) : undefined };
      }
    }
    return { items };
  }

  async listCompanies(factoryId: string, cursor: string | undefined, limit: number): Promise<Page<Company>> {
    const after = cursor === undefined ? undefined : companyCursor.decode(cursor, factoryId);
    const companies = [...this.contacts.companies.values()]
      .filter((company) => company.factoryId === factoryId)
      .map((company) => ({ key: company.domain, company }))
      .sort((a, b) => (a.key < b.key ? -1 : 1))
      .filter(({ key }) => after === undefined || key > after);
    const page = companies.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map(({ company }) => ({ id: company.id, domain: company.domain, name: company.name, createdAt: company.createdAt })),
      next: companies.length > limit && last ? companyCursor.encode(factoryId, last.key) : undefined,
    };
  }

  async contactsOfCompany(factoryId: string, companyId: string, cursor: string | undefined, limit: number): Promise<Page<StoredContact>> {
    const after = cursor === undefined ? undefined : contactCursor.decode(cursor, factoryId);
    const linked = this.contactsOf(factoryId).filter((contact) => contact.companyId === companyId && (after === undefined || contact.id > after));
    const page = linked.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map((contact) => structuredClone(contact)),
      next: linked.length > limit && last ? contactCursor.encode(factoryId, last.id) : undefined,
    };
  }

  async findCompany(factoryId: string, companyId: string): Promise<Company | undefined> {
    const company = [...this.contacts.companies.values()].find((found) => found.factoryId === factoryId && found.id === companyId);
    return company && { id: company.id, domain: company.domain, name: company.name, createdAt: company.createdAt };
  }

  async companyDomains(factoryId: string, companyIds: readonly string[]): Promise<Map<string, string>> {
    const wanted = new Set(companyIds);
    return new Map(
      [...this.contacts.companies.values()]
        .filter((company) => company.factoryId === factoryId && wanted.has(company.id))
        .map((company) => [company.id, company.domain]),
    );
  }

  async passMarkers(factoryId: string, contactId: string): Promise<PassMarker[]> {
    const prefix = `${factoryId}/${contactId}#`;
    return [...(this.enrichment?.passIds.entries() ?? [])].filter(([key]) => key.startsWith(prefix)).map(([, marker]) => ({ ...marker }));
  }

  async applyClear(write: ClearWrite): Promise<ClearOutcome> {
    const key = `${write.factoryId}/${write.contactId}`;
    const current = this.contacts.contacts.get(key) as StoredContact | undefined;
    if (!clearStillApplies(current, write.plan)) return { outcome: 'conflict', current: current && structuredClone(current) };
    const next = applyClearTo(current, write.plan);
    this.contacts.contacts.set(key, next);
    return { outcome: 'applied', contact: structuredClone(next) };
  }

  private contactsOf(factoryId: string): StoredContact[] {
    const prefix = `${factoryId}/${CONTACT_ID_PREFIX}`;
    return [...this.contacts.contacts.entries()]
      .filter(([key]) => key.startsWith(prefix))
      .map(([, contact]) => contact as StoredContact)
      .sort((a, b) => (a.id < b.id ? -1 : 1));
  }
}
