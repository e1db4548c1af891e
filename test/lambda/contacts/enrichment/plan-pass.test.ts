import { planPass } from '../../../../lambda/contacts/enrichment/plan-pass';
import type { Contact } from '../../../../lambda/contacts/domain/contact';

const contact = (fields: Partial<Contact> = {}): Contact => ({
  id: 'ct_0123456789abcdef',
  factoryId: 'fac_u',
  email: 'a@b.co',
  source: 'api',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...fields,
});
const AT = '2026-11-21T12:00:00.000Z';

describe('planPass', () => {
  const looked = (found: Record<string, string>) => ({ found, lookedUp: Object.keys(found).length > 0 });

  test('nothing found: a miss, nothing to write', () => {
    expect(planPass(contact(), looked({}), 'P', AT)).toMatchObject({ kind: 'miss', billed: false, enrichment: undefined });
  });

  test('nothing found on a contact enriched before: a free miss, recorded in enrichment', () => {
    expect(planPass(contact({ enriched: true }), looked({}), 'P', AT)).toMatchObject({
      kind: 'miss',
      billed: false,
      enrichment: { provider: 'P', at: AT, fields: {} },
      markEnriched: false,
    });
  });

  test('only derived values, filling nothing: a miss', () => {
    const plan = planPass(contact({ name: 'Set' }), { found: { name: 'Derived' }, lookedUp: false }, 'P', AT);
    expect(plan).toMatchObject({ kind: 'miss', billed: false, enrichment: undefined });
  });

  test('fills only the empty fields and records all found', () => {
    const plan = planPass(contact({ name: 'Set' }), looked({ name: 'Found', title: 'T' }), 'P', AT);
    expect(plan).toEqual({
      kind: 'fill',
      billed: true,
      found: { name: 'Found', title: 'T' },
      ignored: [],
      fill: { title: 'T' },
      expectSet: { name: true, title: false },
      expectCleared: { title: null },
      enrichment: { provider: 'P', at: AT, fields: { name: 'Found', title: 'T' } },
      markEnriched: true,
    });
  });

  test('all found fields set on a contact never enriched: complete, no enrichment written', () => {
    const plan = planPass(contact({ name: 'Set' }), looked({ name: 'Found' }), 'P', AT);
    expect(plan).toMatchObject({ kind: 'complete', billed: true, fill: {}, markEnriched: false, enrichment: undefined });
  });

  test('all found fields set on a contact enriched before: complete, enrichment updated', () => {
    const plan = planPass(contact({ name: 'Set', enriched: true }), looked({ name: 'Found' }), 'P', AT);
    expect(plan).toMatchObject({ kind: 'complete', markEnriched: false, enrichment: { at: AT, fields: { name: 'Found' } } });
  });
});

describe('planPass and values the control room cleared', () => {
  const cleared = { title: { value: 'Wrong', at: '2026-11-20T00:00:00.000Z', by: 'arn:aws:iam::1:role/ControlRoom' } };
  const data = (found: Record<string, string>) => ({ found, lookedUp: true, fromData: Object.keys(found) as ('name' | 'title' | 'phone' | 'location')[] });

  test('a found value the control room cleared from the field is set aside: not filled, not recorded, not billed on its own', () => {
    const plan = planPass({ ...contact({ enriched: true }), cleared }, data({ title: 'Wrong' }), 'P', AT);
    expect(plan).toMatchObject({ kind: 'miss', billed: false, ignored: ['title'], fill: {}, found: {} });
    expect(plan.enrichment?.fields).toEqual({});
  });

  test('other finds still fill and bill; the cleared one is left out of enrichment.fields', () => {
    const plan = planPass({ ...contact(), cleared }, data({ title: 'Wrong', location: 'Rome' }), 'P', AT);
    expect(plan).toMatchObject({ kind: 'fill', billed: true, ignored: ['title'], fill: { location: 'Rome' } });
    expect(plan.enrichment?.fields).toEqual({ location: 'Rome' });
    expect(plan.expectCleared).toEqual({ location: null });
  });

  test('another value fills the cleared field, and the write requires the clear it saw', () => {
    const plan = planPass({ ...contact(), cleared }, data({ title: 'Right' }), 'P', AT);
    expect(plan).toMatchObject({ kind: 'fill', fill: { title: 'Right' }, ignored: [], expectCleared: { title: cleared.title.at } });
  });

  test('a cleared value found only by the derived heuristic beside a data find keeps the pass a data find', () => {
    const plan = planPass({ ...contact({ name: 'Set' }), cleared }, { found: { title: 'Wrong', name: 'Found' }, lookedUp: true, fromData: ['name'] }, 'P', AT);
    expect(plan).toMatchObject({ kind: 'complete', billed: true, ignored: ['title'] });
  });
});
