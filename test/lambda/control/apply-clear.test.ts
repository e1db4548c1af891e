import { applyClearTo, clearStillApplies } from '../../../lambda/control/apply-clear';
import { planClear } from '../../../lambda/control/plan-clear';
import type { StoredContact } from '../../../lambda/contacts/enrichment/ports';

/** The clear's write rule as functions; the DynamoDB store's condition is held to them in test/store/control-store-agrees.test.ts. */
const AT = '2026-11-21T12:00:00.000Z';
const CONTACT: StoredContact = {
  id: 'ct_0123456789abcdef',
  factoryId: 'fac_a',
  email: 'grace@acme.io',
  name: 'Grace',
  title: 'Admiral',
  source: 'api',
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  enriched: true,
  enrichment: { provider: 'P', at: '2026-11-02T00:00:00.000Z', fields: { title: 'Admiral', location: 'Arlington' } },
};
const plan = (fields: ('title' | 'name')[], on: StoredContact = CONTACT) => planClear(on, { fields, by: 'arn:op', at: AT });

describe('whether a planned clear may still be written', () => {
  test('on the contact as it read it: yes', () => {
    expect(clearStillApplies(CONTACT, plan(['title']))).toBe(true);
  });

  test('not on a contact gone, nor when a field to remove holds another value now', () => {
    expect(clearStillApplies(undefined, plan(['title']))).toBe(false);
    expect(clearStillApplies({ ...CONTACT, title: 'Rear Admiral' }, plan(['title']))).toBe(false);
  });

  test('not when the cleared map appeared or went since, nor when the enrichment record it trims changed', () => {
    expect(clearStillApplies({ ...CONTACT, cleared: {} }, plan(['title']))).toBe(false);
    expect(clearStillApplies({ ...CONTACT, enrichment: { ...CONTACT.enrichment!, at: '2026-11-03T00:00:00.000Z' } }, plan(['title']))).toBe(false);
  });

  test('a change elsewhere on the contact does not matter', () => {
    expect(clearStillApplies({ ...CONTACT, name: 'Grace H.' }, plan(['title']))).toBe(true);
  });
});

describe('the contact after the clear', () => {
  test('the field gone, recorded under cleared, dropped from what the pass found, updatedAt moved, the rest unchanged', () => {
    const after = applyClearTo(CONTACT, plan(['title']));
    expect(after.title).toBeUndefined();
    expect(after.cleared).toEqual({ title: { value: 'Admiral', at: AT, by: 'arn:op' } });
    expect(after.enrichment?.fields).toEqual({ location: 'Arlington' });
    expect(after).toMatchObject({ name: 'Grace', updatedAt: AT, createdAt: CONTACT.createdAt, enriched: true });
  });

  test('a second clear adds to the record of the first', () => {
    const once = applyClearTo(CONTACT, plan(['title']));
    const twice = applyClearTo(once, plan(['name'], once));
    expect(Object.keys(twice.cleared ?? {}).sort()).toEqual(['name', 'title']);
  });
});
