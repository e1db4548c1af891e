import { applyPassTo, passStillApplies } from '../../../../lambda/contacts/enrichment/apply-pass';
import { planPass } from '../../../../lambda/contacts/enrichment/plan-pass';
import type { PassWrite, StoredContact } from '../../../../lambda/contacts/enrichment/ports';

/** The pass's write rule as functions; the DynamoDB store's condition is held to them in test/store (enrichment agreement). */
const READ: StoredContact = {
  id: 'ct_0123456789abcdef',
  factoryId: 'fac_a',
  email: 'grace.hopper@acme.io',
  name: 'Grace',
  source: 'api',
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
};
const AT = '2026-11-21T12:00:00.000Z';
const writeOf = (contact: StoredContact, found: Record<string, string>, bulk = false): PassWrite => ({
  factoryId: 'fac_a',
  contact,
  plan: planPass(contact, { found, lookedUp: true, fromData: Object.keys(found) as never }, 'Platform', AT),
  bulk,
  at: AT,
  period: '2026-11',
});

describe('whether a planned pass may still be written', () => {
  test('on the contact as the plan read it: yes', () => {
    expect(passStillApplies(READ, writeOf(READ, { title: 'Admiral' }))).toBe(true);
  });

  test('not on a contact gone, nor one where a field the plan looked at was set or emptied since', () => {
    const write = writeOf(READ, { name: 'Grace Hopper', title: 'Admiral' });
    expect(passStillApplies(undefined, write)).toBe(false);
    expect(passStillApplies({ ...READ, title: 'Rear Admiral' }, write)).toBe(false);
    expect(passStillApplies({ ...READ, name: undefined }, write)).toBe(false);
  });

  test('not when a field it fills was cleared in the control room since, nor when enriched changed', () => {
    const write = writeOf(READ, { title: 'Admiral' });
    expect(passStillApplies({ ...READ, cleared: { title: { value: 'Admiral', at: AT, by: 'arn:ops' } } }, write)).toBe(false);
    expect(passStillApplies({ ...READ, enriched: true }, write)).toBe(false);
  });

  test('a bulk pass not on a contact another pass billed meanwhile; a refresh still', () => {
    const billed = { ...READ, enrichmentCheckedAt: AT };
    expect(passStillApplies(billed, writeOf(READ, { title: 'Admiral' }, true))).toBe(false);
    expect(passStillApplies(billed, writeOf(READ, { title: 'Admiral' }, false))).toBe(true);
  });
});

describe('the contact after the pass', () => {
  test('found values fill only the fields still empty; updatedAt moves; enriched and the record are written; billed marks the contact', () => {
    const after = applyPassTo(READ, writeOf(READ, { name: 'Grace Hopper', title: 'Admiral' }));
    expect(after).toMatchObject({ name: 'Grace', title: 'Admiral', updatedAt: AT, enriched: true, enrichmentCheckedAt: AT });
    expect(after.enrichment).toEqual({ provider: 'Platform', at: AT, fields: { name: 'Grace Hopper', title: 'Admiral' } });
  });

  test('a value set on the contact after the plan is kept, never overwritten', () => {
    const after = applyPassTo({ ...READ, title: "Caller's title" }, writeOf(READ, { title: 'Admiral' }));
    expect(after.title).toBe("Caller's title");
  });

  test('a clean miss on a contact never enriched writes no record and no mark', () => {
    const after = applyPassTo(READ, writeOf(READ, {}));
    expect([after.enriched, after.enrichment, after.enrichmentCheckedAt]).toEqual([undefined, undefined, undefined]);
  });
});
