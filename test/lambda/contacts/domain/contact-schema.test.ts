import * as z from 'zod/mini';
import { contactSchema, sourceSchema, upsertResultSchema } from '../../../../lambda/contacts/domain/contact-schema';
import { SOURCES } from '../../../../lambda/contacts/domain/source';

/** The answers' schemas, from which the OpenAPI document and the typed client are generated. */
const CONTACT = {
  id: 'ct_0123456789abcdef',
  factoryId: 'fac_a',
  email: 'ada@example.com',
  source: 'api',
  createdAt: '2026-11-21T09:00:00.000Z',
  updatedAt: '2026-11-21T09:00:00.000Z',
};

describe('the contact schema', () => {
  test('takes a contact as the API answers it, with enrichment and a company link', () => {
    const enriched = {
      ...CONTACT,
      companyId: 'co_0123456789abcdef',
      enriched: true,
      enrichment: { provider: 'P', at: '2026-11-21T10:00:00.000Z', fields: { title: 'Admiral' } },
    };
    expect(z.safeParse(contactSchema, enriched).success).toBe(true);
    expect(z.safeParse(upsertResultSchema, { contact: CONTACT, created: true }).success).toBe(true);
  });

  test('refuses ids of the wrong shape, a null for an absent field, and a time without its zone', () => {
    expect(z.safeParse(contactSchema, { ...CONTACT, id: 'ct_X' }).success).toBe(false);
    expect(z.safeParse(contactSchema, { ...CONTACT, companyId: 'acme.io' }).success).toBe(false);
    expect(z.safeParse(contactSchema, { ...CONTACT, name: null }).success).toBe(false);
    expect(z.safeParse(contactSchema, { ...CONTACT, createdAt: '2026-11-21 09:00' }).success).toBe(false);
  });

  test("a source is one of the four, the answers' and the request's alike", () => {
    for (const source of SOURCES) expect(z.safeParse(sourceSchema, source).success).toBe(true);
    expect(z.safeParse(sourceSchema, 'email').success).toBe(false);
  });
});
