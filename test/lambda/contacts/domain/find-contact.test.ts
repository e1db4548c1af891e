import { contactId } from '../../../../lambda/contacts/domain/contact-id';
import { findContactByEmail, findContactById } from '../../../../lambda/contacts/domain/find-contact';
import { MemoryContactStore } from '../../../../lambda/infrastructure/memory/memory-contact-store';
import { stored } from '../../../support/emails';

/** Reads of a contact, on the in-memory store, its calls counted. */
async function storeWithAda() {
  const store = new MemoryContactStore();
  const id = contactId('fac_a', stored('ada@example.com'));
  await store.writeContact({
    factoryId: 'fac_a',
    id,
    email: stored('ada@example.com'),
    fields: { name: 'Ada' },
    now: '2026-11-21T09:00:00.000Z',
    creationToken: 't',
  });
  const reads: string[] = [];
  const get = store.getContact.bind(store);
  store.getContact = async (factoryId, contact) => {
    reads.push(contact);
    return get(factoryId, contact);
  };
  return { store, id, reads };
}

describe('finding a contact', () => {
  test('by id: its public view, only within its own factory', async () => {
    const { store, id } = await storeWithAda();
    expect(await findContactById(store, 'fac_a', id)).toMatchObject({ id, name: 'Ada', email: 'ada@example.com' });
    expect(await findContactById(store, 'fac_b', id)).toBeUndefined();
  });

  test('by email in any case and padding, through the id the upsert would have written', async () => {
    const { store, id } = await storeWithAda();
    expect((await findContactByEmail(store, 'fac_a', '  ADA@Example.com '))?.id).toBe(id);
  });

  test('an id or an email that cannot exist costs no read', async () => {
    const { store, reads } = await storeWithAda();
    expect(await findContactById(store, 'fac_a', 'ct_NOT-AN-ID')).toBeUndefined();
    expect(await findContactByEmail(store, 'fac_a', 'not an address')).toBeUndefined();
    expect(reads).toEqual([]);
  });
});
