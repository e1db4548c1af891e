import { erasePerson } from '../../../lambda/control/erase-person';
import type { StoredEmail } from '../../../lambda/kernel/email';
import { stored } from '../../support/emails';
import { CONTROL_FACTORY, memoryControlRoom } from '../../support/control-memory';

/**
 * Erasing a person (docs/privacy.md#erasure) on in-memory ports; the whole
 * flow with ingest and exports: test/rules/erasure.test.ts, and on DynamoDB
 * Local test/control/erasure.test.ts.
 */
const room = memoryControlRoom();
const EMAIL = stored('grace.hopper@navy.example');
const NOW = new Date('2026-11-27T12:00:00.000Z');
const always = () => true;

/** An event and a feature request reported by `email`, as the ingest API stores them. */
async function reportsBy(email: string, count = 1) {
  const at = Date.parse('2026-11-27T09:00:00.000Z');
  await room.reports.putEvents(
    Array.from({ length: count }, (_, n) => ({
      factoryId: CONTROL_FACTORY,
      keyId: 'key_rules',
      origin: 'https://a.example',
      receivedAt: new Date(at + n * 1000).toISOString(),
      expiresAt: Math.floor(at / 1000) + 86_400,
      writeToken: `w${email}${n}`,
      eventId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      type: 'bug_report' as const,
      message: 'the cart is empty',
      reporter: { email, name: 'Grace' },
    })),
  );
}

describe('an erasure', () => {
  test("by email deletes the contact as read, its pass markers and the vendor's record, and forgets the reporter on each report", async () => {
    room.dataset.add(EMAIL, { title: 'Rear Admiral' });
    const contact = await room.upsert({ email: EMAIL });
    await room.control({ operation: 'enrichment.refresh', contactId: contact.id, passId: 'pass-1' });
    await reportsBy(EMAIL.toUpperCase(), 2);
    const erasure = await erasePerson(room.deps, CONTROL_FACTORY, { email: EMAIL }, NOW, always);
    expect(erasure).toEqual({
      contactId: contact.id,
      personKey: expect.stringMatching(/^person_[0-9a-f]{32}$/),
      contact: true,
      passMarkers: 1,
      vendorRecord: true,
      events: 2,
      featureRequests: 0,
      feedback: 0,
      // Bug reports of no issue: nobody to take out of an issue's people.
      issues: 0,
      complete: true,
    });
    expect(await room.store.getContact(CONTROL_FACTORY, contact.id)).toBeUndefined();
    expect([...room.reports.events.values()].every((event) => (event as { reporter?: unknown }).reporter === undefined)).toBe(true);
  });

  test('by contact id finds the email through the contact it held', async () => {
    const contact = await room.upsert({ email: EMAIL });
    await reportsBy(EMAIL);
    expect(await erasePerson(room.deps, CONTROL_FACTORY, { contactId: contact.id }, NOW, always)).toMatchObject({ contact: true, events: 1 });
  });

  test('someone unknown: nothing found, nothing removed', async () => {
    expect(await erasePerson(room.deps, CONTROL_FACTORY, { email: stored('nobody@example.com') }, NOW, always)).toMatchObject({
      contact: false,
      passMarkers: 0,
      vendorRecord: false,
      events: 0,
      featureRequests: 0,
      feedback: 0,
      complete: true,
    });
  });

  test('a contact that changes between its read and its delete is read again and erased as it is then', async () => {
    const contact = await room.upsert({ email: EMAIL });
    const people = room.deps.people!;
    const remove = people.deleteContact.bind(people);
    let first = true;
    people.deleteContact = async (factoryId, contactId, seen) => {
      if (first) {
        first = false;
        await room.upsert({ email: EMAIL, title: 'written meanwhile' });
      }
      return remove(factoryId, contactId, seen);
    };
    expect((await erasePerson(room.deps, CONTROL_FACTORY, { email: EMAIL }, NOW, always)).contact).toBe(true);
    expect(await room.store.getContact(CONTROL_FACTORY, contact.id)).toBeUndefined();
  });

  test('a contact that keeps changing is a storage failure to retry, not a half-erased person', async () => {
    await room.upsert({ email: EMAIL });
    room.deps.people!.deleteContact = async () => 'conflict';
    await expect(erasePerson(room.deps, CONTROL_FACTORY, { email: EMAIL }, NOW, always)).rejects.toThrow(/changed 5 times while it was being erased/);
  });

  test('cut short by its time, it says it is not complete; erasing again finishes', async () => {
    await room.upsert({ email: EMAIL });
    await reportsBy(EMAIL, 3);
    expect((await erasePerson(room.deps, CONTROL_FACTORY, { email: EMAIL }, NOW, () => false)).complete).toBe(false);
    expect(await erasePerson(room.deps, CONTROL_FACTORY, { email: EMAIL as StoredEmail }, NOW, always)).toMatchObject({ events: 3, complete: true });
  });
});
