import { contactView, ENRICHABLE_FIELDS, TEXT_FIELDS, type Contact } from '../../../../lambda/contacts/domain/contact';

const BASE: Contact = {
  id: 'ct_0123456789abcdef',
  factoryId: 'fac_a',
  email: 'ada@example.com',
  source: 'api',
  createdAt: '2026-11-21T09:00:00.000Z',
  updatedAt: '2026-11-21T09:00:00.000Z',
};

describe("a contact's public view", () => {
  test('lists its fields in the one order of the answers, whatever order they were stored in', () => {
    const stored = {
      updatedAt: BASE.updatedAt,
      name: 'Ada',
      email: BASE.email,
      companyId: 'co_0123456789abcdef',
      id: BASE.id,
      factoryId: 'fac_a',
      source: 'api',
      createdAt: BASE.createdAt,
    } as Contact;
    expect(Object.keys(contactView(stored))).toEqual(['id', 'factoryId', 'companyId', 'email', 'name', 'source', 'createdAt', 'updatedAt']);
  });

  test('leaves out what is unset or null, and anything it does not know', () => {
    const stored = { ...BASE, title: undefined, phone: null, creationToken: 't1', cleared: {} } as unknown as Contact;
    expect(contactView(stored)).toEqual(BASE);
  });

  test("orders the enrichment object as the spec does, its fields the enrichable ones' order first, then the rest by name", () => {
    const view = contactView({
      ...BASE,
      enriched: true,
      enrichment: { fields: { zeta: 'z', location: 'Arlington', title: 'Admiral', alpha: 'a' }, at: '2026-11-21T10:00:00.000Z', provider: 'P' },
    });
    expect(Object.keys(view.enrichment ?? {})).toEqual(['provider', 'at', 'fields']);
    expect(Object.keys(view.enrichment?.fields ?? {})).toEqual(['title', 'location', 'alpha', 'zeta']);
  });

  test('a caller writes the text fields; enrichment fills only name, title, phone and location', () => {
    expect(TEXT_FIELDS).toEqual(['name', 'title', 'phone', 'page']);
    expect(ENRICHABLE_FIELDS).toEqual(['name', 'title', 'phone', 'location']);
  });
});
