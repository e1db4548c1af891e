import { ControlError } from '../../../lambda/control/operation';
import { findPerson, passesOf, peopleOf, reportPage, reportViews, vendorRecordOf } from '../../../lambda/control/person-data';
import { stored } from '../../support/emails';
import { CONTROL_FACTORY, memoryControlRoom } from '../../support/control-memory';

/** Where one person's data is, on in-memory ports: the one lookup erasure, export and a contact's page share. */
const room = memoryControlRoom();
const EMAIL = stored('ada@example.com');

async function reportBy(email: string, eventId: string, at: string) {
  await room.reports.putEvents([
    {
      factoryId: CONTROL_FACTORY,
      keyId: 'k',
      origin: 'https://a.example',
      receivedAt: at,
      expiresAt: 2_000_000_000,
      writeToken: eventId,
      eventId,
      type: 'bug_report',
      message: 'm',
      reporter: { email },
    },
  ]);
}

describe('finding a person', () => {
  test('by email: the contact its id derives, the person key and the email', async () => {
    const contact = await room.upsert({ email: EMAIL });
    const found = await findPerson(room.deps, CONTROL_FACTORY, { email: EMAIL });
    expect(found).toMatchObject({ contactId: contact.id, contact: { id: contact.id }, email: EMAIL, person: expect.stringMatching(/^person_/) });
  });

  test('by email with no contact: still the person key, so their reports are found', async () => {
    const found = await findPerson(room.deps, CONTROL_FACTORY, { email: EMAIL });
    expect([found.contact, found.person?.startsWith('person_')]).toEqual([undefined, true]);
  });

  test('by the id of a contact already gone: no email, so no person key and no reports', async () => {
    const found = await findPerson(room.deps, CONTROL_FACTORY, { contactId: 'ct_0000000000000000' });
    expect(found).toEqual({ contactId: 'ct_0000000000000000' });
    expect(await reportPage(room.deps, CONTROL_FACTORY, found.person, undefined, 10)).toEqual({ items: [] });
    expect(await vendorRecordOf(room.deps, found)).toBeUndefined();
  });
});

describe("a person's reports", () => {
  test('newest first, a page at a time, each shown with its kind', async () => {
    await reportBy('ADA@example.com', '00000000-0000-4000-8000-000000000001', '2026-11-27T09:00:00.000Z');
    await reportBy(EMAIL, '00000000-0000-4000-8000-000000000002', '2026-11-27T10:00:00.000Z');
    await reportBy('someone@example.com', '00000000-0000-4000-8000-000000000003', '2026-11-27T11:00:00.000Z');
    const { person } = await findPerson(room.deps, CONTROL_FACTORY, { email: EMAIL });
    const first = await reportPage(room.deps, CONTROL_FACTORY, person, undefined, 1);
    const second = await reportPage(room.deps, CONTROL_FACTORY, person, first.next, 1);
    expect([...first.items, ...second.items].map((ref) => ref.id)).toEqual(['00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001']);
    expect(second.next).toBeUndefined();
    const views = await reportViews(room.deps, CONTROL_FACTORY, first.items, new Date('2026-11-27T12:00:00Z'));
    expect(views).toEqual([expect.objectContaining({ kind: 'event', eventId: '00000000-0000-4000-8000-000000000002' })]);
    expect(await reportViews(room.deps, CONTROL_FACTORY, [], new Date())).toEqual([]);
  });
});

test("the vendor's record and the pass markers of the person", async () => {
  room.dataset.add(EMAIL, { title: 'Countess' });
  const contact = await room.upsert({ email: EMAIL });
  await room.control({ operation: 'enrichment.refresh', contactId: contact.id, passId: 'p1' });
  const found = await findPerson(room.deps, CONTROL_FACTORY, { email: EMAIL });
  expect(await vendorRecordOf(room.deps, found)).toMatchObject({ email: EMAIL, title: 'Countess' });
  expect((await passesOf(room.deps, CONTROL_FACTORY, contact.id)).map((pass) => pass.passId)).toEqual(['p1']);
});

test('a control room without the person store answers 500 saying so', () => {
  const { people: _people, ...without } = room.deps;
  expect(() => peopleOf(without)).toThrow(ControlError);
  expect(() => peopleOf(without)).toThrow(/person operations are not configured/);
});
