import {
  addAffected,
  affectedOf,
  affectsCounts,
  companiesOfPeople,
  contactOfEvent,
  noneAffected,
  peopleBusiestFirst,
  type AffectedPerson,
} from '../../../../lambda/ingest/issues/affected';
import { contactId } from '../../../../lambda/contacts/domain/contact-id';
import type { StoredEmail } from '../../../../lambda/kernel/email';

const person = (id: string, events: number, lastSeen: string, companyId?: string): AffectedPerson => ({
  contactId: id,
  events,
  firstSeen: '2026-12-01T00:00:00.000Z',
  lastSeen,
  inCrm: companyId !== undefined,
  ...(companyId === undefined ? {} : { companyId }),
});

describe('who an issue affects', () => {
  test("an event's person is the contact id of its reporter's email, as the contacts API derives it; none without an email", () => {
    expect(contactOfEvent({ factoryId: 'fac_a', reporter: { email: ' Ada@Example.COM ' } })).toBe(contactId('fac_a', 'ada@example.com' as StoredEmail));
    expect(contactOfEvent({ factoryId: 'fac_a', reporter: { name: 'Ada' } })).toBeUndefined();
    expect(contactOfEvent({ factoryId: 'fac_a', reporter: { email: 'not an email' } })).toBeUndefined();
  });

  test('only the events that opened a pair count: a contact, someone not in the CRM, and a company once', () => {
    expect(
      affectedOf([
        { contactId: 'ct_1', inCrm: true, companyId: 'co_1', opens: true, opensCompany: true },
        { contactId: 'ct_1', inCrm: true, companyId: 'co_1' },
        { contactId: 'ct_2', inCrm: true, companyId: 'co_1', opens: true, opensCompany: false },
        { contactId: 'ct_3', inCrm: false, opens: true },
        undefined,
      ]),
    ).toEqual({ contacts: 2, notInCrm: 1, companies: 1 });
    expect(affectsCounts(noneAffected())).toBe(false);
  });

  test('counts add up, and an erasure takes one down without going below zero', () => {
    expect(addAffected({ contacts: 2, notInCrm: 0, companies: 1 }, { contacts: -1, notInCrm: -1, companies: -1 })).toEqual({
      contacts: 1,
      notInCrm: 0,
      companies: 0,
    });
    expect(addAffected(undefined, { contacts: 1, notInCrm: 0, companies: 1 })).toEqual({ contacts: 1, notInCrm: 0, companies: 1 });
  });

  test("an issue's companies are summed from its people, most people first, then most events", () => {
    const people = [
      person('ct_a', 1, '2026-12-02T00:00:00.000Z', 'co_small'),
      person('ct_b', 9, '2026-12-03T00:00:00.000Z', 'co_busy'),
      person('ct_c', 1, '2026-12-04T00:00:00.000Z', 'co_big'),
      person('ct_d', 2, '2026-12-01T00:00:00.000Z', 'co_big'),
      person('ct_e', 5, '2026-12-05T00:00:00.000Z'),
    ];
    expect(companiesOfPeople(people)).toEqual([
      { companyId: 'co_big', people: 2, events: 3, lastSeen: '2026-12-04T00:00:00.000Z' },
      { companyId: 'co_busy', people: 1, events: 9, lastSeen: '2026-12-03T00:00:00.000Z' },
      { companyId: 'co_small', people: 1, events: 1, lastSeen: '2026-12-02T00:00:00.000Z' },
    ]);
    expect([...people].sort(peopleBusiestFirst).map((p) => p.contactId)).toEqual(['ct_b', 'ct_e', 'ct_d', 'ct_c', 'ct_a']);
  });
});
