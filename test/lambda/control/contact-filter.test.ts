import { matchesFilter } from '../../../lambda/control/contact-filter';
import type { StoredContact } from '../../../lambda/contacts/enrichment/ports';

const CONTACT: StoredContact = {
  id: 'ct_0123456789abcdef',
  factoryId: 'fac_a',
  email: 'a@b.co',
  source: 'api',
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-10T12:00:00.000Z',
};

describe("the contacts list's filter", () => {
  test('no filter takes every contact', () => {
    expect(matchesFilter(CONTACT, {})).toBe(true);
  });

  test('enriched: yes takes only contacts a pass enriched, no only the others', () => {
    expect(matchesFilter({ ...CONTACT, enriched: true }, { enriched: true })).toBe(true);
    expect(matchesFilter(CONTACT, { enriched: true })).toBe(false);
    expect(matchesFilter(CONTACT, { enriched: false })).toBe(true);
    expect(matchesFilter({ ...CONTACT, enriched: true }, { enriched: false })).toBe(false);
  });

  test('updated since takes contacts updated at that instant or after', () => {
    expect(matchesFilter(CONTACT, { updatedSince: '2026-11-10T12:00:00.000Z' })).toBe(true);
    expect(matchesFilter(CONTACT, { updatedSince: '2026-11-10T12:00:00.001Z' })).toBe(false);
  });

  test('both at once: a contact must pass each', () => {
    expect(matchesFilter({ ...CONTACT, enriched: true }, { enriched: true, updatedSince: '2026-11-11T00:00:00.000Z' })).toBe(false);
  });
});
