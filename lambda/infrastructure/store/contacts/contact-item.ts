import type { Contact } from '../../../contacts/domain/contact';
import type { StoredContact } from '../../../contacts/enrichment/ports';

/** A contact item as stored: the contact plus key attributes and bookkeeping. */
export type ContactItem = Omit<Contact, 'id'> & {
  factoryId: string;
  sk: string;
  /** Token of the request that created the item; tells `created` apart. */
  creationToken?: string;
};

/** The contact an item holds, with what only the control room sees (its sort key is the id; bookkeeping dropped). */
export function itemToContact(item: Record<string, unknown>): StoredContact {
  const { sk, creationToken: _token, ...rest } = item as ContactItem;
  return { ...rest, id: sk } as StoredContact;
}
