import { contactView, type Contact } from './contact';
import { contactId } from './contact-id';
import { isContactId } from '../../kernel/contact-id-digest';
import { normalizeEmail } from '../../kernel/email';
import type { ContactStore } from './ports';

/** Reads a contact of the caller's factory by id; undefined when there is none. */
export async function findContactById(store: ContactStore, factoryId: string, id: string): Promise<Contact | undefined> {
  if (!isContactId(id)) return undefined; // no such id can exist: spare the read
  const contact = await store.getContact(factoryId, id);
  return contact && contactView(contact);
}

/**
 * Reads a contact by email through the id the upsert would have written
 * (docs/contacts-api.md#find-a-contact-by-email--get-apiv1contactsemail). An address the upsert would refuse cannot exist: undefined.
 */
export async function findContactByEmail(store: ContactStore, factoryId: string, email: string): Promise<Contact | undefined> {
  const check = normalizeEmail(email);
  if (!check.ok) return undefined;
  return findContactById(store, factoryId, contactId(factoryId, check.email));
}
