import type { ClearWrite, ControlStore } from '../../../lambda/control/ports';
import { runPass } from '../../../lambda/contacts/enrichment/run-pass';
import { CONTROL_CALLER, CONTROL_FACTORY, memoryControlRoom } from '../../support/control-memory';

/**
 * Clearing fields of a contact (runClear) on in-memory ports: what is removed and recorded, what a
 * racing write keeps. The DynamoDB store's write is held to the same rule in test/store/control-store-agrees.test.ts.
 */
const room = memoryControlRoom();

describe('clearing a field', () => {
  test('removes it, records what was cleared, when, by whom and why, moves updatedAt and leaves createdAt', async () => {
    const contact = await room.upsert({ email: 'c1@example.com', title: 'Wrong', name: 'Kept' });
    const result = await room.clear(contact.id, ['title'], 'ticket 1');
    expect(result).toMatchObject({ outcome: 'done', cleared: ['title'], alreadyEmpty: [], changed: [] });
    const after = await room.stored(contact.id);
    expect(after.title).toBeUndefined();
    expect(after).toMatchObject({ name: 'Kept', createdAt: contact.createdAt });
    expect(after.updatedAt > contact.updatedAt).toBe(true);
    expect(after.cleared).toEqual({ title: { value: 'Wrong', at: after.updatedAt, by: CONTROL_CALLER, reason: 'ticket 1' } });
  });

  test('an empty field is already clear: nothing is written, updatedAt stays', async () => {
    const contact = await room.upsert({ email: 'c2@example.com' });
    expect(await room.clear(contact.id, ['phone'])).toMatchObject({ cleared: [], alreadyEmpty: ['phone'] });
    expect(await room.stored(contact.id)).toEqual(contact);
  });

  test("a second clear of another field keeps the first one's record", async () => {
    const contact = await room.upsert({ email: 'c3@example.com', title: 'T', phone: '1' });
    await room.clear(contact.id, ['title']);
    await room.clear(contact.id, ['phone']);
    expect(Object.keys((await room.stored(contact.id)).cleared ?? {})).toEqual(['title', 'phone']);
  });

  test("a caller write landing between the clear's read and its write is kept, not cleared", async () => {
    const contact = await room.upsert({ email: 'c4@example.com', title: 'Old' });
    const racing = Object.create(room.store) as ControlStore;
    let raced = false;
    racing.applyClear = async (write: ClearWrite) => {
      if (!raced) {
        raced = true;
        await room.upsert({ email: 'c4@example.com', title: 'Caller' });
      }
      return room.store.applyClear(write);
    };
    expect(await room.clear(contact.id, ['title'], undefined, racing)).toMatchObject({ cleared: [], changed: ['title'] });
    expect((await room.stored(contact.id)).title).toBe('Caller');
  });

  test('two clears of different fields racing both keep their record', async () => {
    const contact = await room.upsert({ email: 'c5@example.com', title: 'T', phone: '1' });
    const racing = Object.create(room.store) as ControlStore;
    let raced = false;
    racing.applyClear = async (write: ClearWrite) => {
      if (!raced) {
        raced = true;
        await room.clear(contact.id, ['phone']);
      }
      return room.store.applyClear(write);
    };
    await room.clear(contact.id, ['title'], undefined, racing);
    expect(Object.keys((await room.stored(contact.id)).cleared ?? {}).sort()).toEqual(['phone', 'title']);
  });

  test("a pass landing between the clear's read and its write keeps what that pass found anew", async () => {
    room.dataset.add('c6@example.com', { title: 'Vendor V1' });
    const contact = await room.upsert({ email: 'c6@example.com' });
    await runPass(room.enrichment, CONTROL_FACTORY, contact.id, { bulk: false });
    room.dataset.add('c6@example.com', { title: 'Vendor V2' });
    const racing = Object.create(room.store) as ControlStore;
    let raced = false;
    racing.applyClear = async (write: ClearWrite) => {
      if (!raced) {
        raced = true;
        await runPass(room.enrichment, CONTROL_FACTORY, contact.id, { bulk: false });
      }
      return room.store.applyClear(write);
    };
    await room.clear(contact.id, ['title'], undefined, racing);
    const after = await room.stored(contact.id);
    expect(after.title).toBeUndefined();
    expect(after.enrichment?.fields).toEqual({ title: 'Vendor V2' });
  });

  test('an unknown contact is not found', async () => {
    expect(await room.clear('ct_0000000000000000', ['title'])).toEqual({ outcome: 'not-found' });
  });
});

describe('clearing the company link', () => {
  test('unlinks the contact; a later upsert with a companyDomain links it again', async () => {
    const contact = await room.upsert({ email: 'l1@example.com', companyDomain: 'acme.io' });
    await room.clear(contact.id, ['companyId']);
    expect((await room.stored(contact.id)).companyId).toBeUndefined();
    expect((await room.store.contactsOfCompany(CONTROL_FACTORY, contact.companyId!, undefined, 10)).items).toEqual([]);
    const relinked = await room.upsert({ email: 'l1@example.com', companyDomain: 'other.io' });
    expect(relinked.companyId).toMatch(/^co_/);
    expect(relinked.companyId).not.toBe(contact.companyId);
  });
});
