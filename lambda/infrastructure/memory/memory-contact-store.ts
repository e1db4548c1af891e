import type { Contact } from '../../contacts/domain/contact';
import { mergeContact } from '../../contacts/domain/merge-contact';
import type { CompanyRecord, ContactStore, ContactWrite } from '../../contacts/domain/ports';

/**
 * ContactStore in memory: the domain's rules (mergeContact, first company
 * writer wins) applied to maps, atomically by construction (one event-loop
 * turn per call). For fast tests of the rules; the DynamoDB store is tested
 * against DynamoDB Local.
 */
export class MemoryContactStore implements ContactStore {
  readonly contacts = new Map<string, Contact>();
  readonly companies = new Map<string, CompanyRecord>();

  async writeContact(write: ContactWrite): Promise<{ contact: Contact; created: boolean }> {
    const key = `${write.factoryId}/${write.id}`;
    const stored = this.contacts.get(key);
    const contact = mergeContact(stored && structuredClone(stored), write);
    this.contacts.set(key, contact);
    return { contact: structuredClone(contact), created: stored === undefined };
  }

  async createCompanyIfMissing(company: CompanyRecord): Promise<void> {
    const key = `${company.factoryId}/${company.domain}`;
    if (!this.companies.has(key)) this.companies.set(key, { ...company });
  }

  async getContact(factoryId: string, id: string): Promise<Contact | undefined> {
    const contact = this.contacts.get(`${factoryId}/${id}`);
    return contact && structuredClone(contact);
  }
}
