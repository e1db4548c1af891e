import { clearTargets, clearWrites, planClear } from '../../../lambda/control/plan-clear';
import type { StoredContact } from '../../../lambda/contacts/enrichment/ports';

const AT = '2026-11-21T12:00:00.000Z';
const BY = 'arn:aws:sts::1:assumed-role/ControlRoom/op';
const CONTACT: StoredContact = {
  id: 'ct_0123456789abcdef',
  factoryId: 'fac_a',
  email: 'grace@acme.io',
  title: 'Admiral',
  location: 'Arlington',
  source: 'api',
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  enriched: true,
  enrichment: { provider: 'P', at: '2026-11-02T00:00:00.000Z', fields: { title: 'Admiral', location: 'Arlington' } },
};

describe('what a clear targets', () => {
  test('the values the fields hold when it first reads the contact; an empty field targets nothing', () => {
    expect(clearTargets(CONTACT, ['title', 'phone'])).toEqual({ title: 'Admiral' });
  });
});

describe('a clear planned from the contact as read', () => {
  test('removes each field that still holds its target, recording value, time, who and why', () => {
    const plan = planClear(CONTACT, { fields: ['title'], by: BY, reason: 'ticket 1', at: AT });
    expect(plan.remove).toEqual({ title: 'Admiral' });
    expect(plan.records).toEqual({ title: { value: 'Admiral', at: AT, by: BY, reason: 'ticket 1' } });
    expect(clearWrites(plan)).toBe(true);
  });

  test('a field already empty is said so, and nothing is written for it', () => {
    const plan = planClear(CONTACT, { fields: ['phone'], by: BY, at: AT });
    expect([plan.alreadyEmpty, clearWrites(plan)]).toEqual([['phone'], false]);
  });

  test('a field that holds another value than the clear saw first (a write landed) is kept, as changed', () => {
    const plan = planClear({ ...CONTACT, title: "Caller's" }, { fields: ['title'], by: BY, at: AT }, { title: 'Admiral' });
    expect([plan.changed, plan.remove]).toEqual([['title'], {}]);
  });

  test("a removed value the last pass found is dropped from enrichment.fields too, the record's time required", () => {
    const plan = planClear(CONTACT, { fields: ['title'], by: BY, at: AT });
    expect([plan.dropFound, plan.enrichmentAt]).toEqual([['title'], '2026-11-02T00:00:00.000Z']);
  });

  test('the company link is cleared like a field, never found by a pass', () => {
    const plan = planClear({ ...CONTACT, companyId: 'co_000000000000000a' }, { fields: ['companyId'], by: BY, at: AT });
    expect([plan.remove, plan.dropFound]).toEqual([{ companyId: 'co_000000000000000a' }, []]);
  });

  test('no reason given, none recorded; whether the contact had a cleared map is noted', () => {
    const plan = planClear({ ...CONTACT, cleared: {} }, { fields: ['location'], by: BY, at: AT });
    expect(plan.records.location).toEqual({ value: 'Arlington', at: AT, by: BY });
    expect(plan.hadCleared).toBe(true);
  });
});
