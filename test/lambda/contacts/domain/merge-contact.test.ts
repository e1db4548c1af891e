import type { Contact } from '../../../../lambda/contacts/domain/contact';
import { mergeContact } from '../../../../lambda/contacts/domain/merge-contact';
import type { ContactWrite } from '../../../../lambda/contacts/domain/ports';

/** The merge rule as a function; the DynamoDB store's expression is held to it in test/store/contact-store-agrees.test.ts. */
const write = (over: Partial<ContactWrite> = {}): ContactWrite => ({
  factoryId: 'fac_a',
  id: 'ct_0123456789abcdef',
  email: 'ada@example.com',
  fields: {},
  now: '2026-11-21T10:00:00.000Z',
  creationToken: 't2',
  ...over,
});
const STORED: Contact = {
  id: 'ct_0123456789abcdef',
  factoryId: 'fac_a',
  email: 'ada@example.com',
  name: 'Ada',
  title: 'Countess',
  source: 'ads',
  companyId: 'co_000000000000000a',
  createdAt: '2026-11-21T09:00:00.000Z',
  updatedAt: '2026-11-21T09:00:00.000Z',
};

describe('the merge rule of an upsert', () => {
  test('a first write: its fields, source api unless sent, created and updated now', () => {
    expect(mergeContact(undefined, write({ fields: { name: 'Ada' } }))).toEqual({
      id: 'ct_0123456789abcdef',
      factoryId: 'fac_a',
      email: 'ada@example.com',
      name: 'Ada',
      source: 'api',
      createdAt: '2026-11-21T10:00:00.000Z',
      updatedAt: '2026-11-21T10:00:00.000Z',
    });
  });

  test('sent fields overwrite, omitted ones keep their value', () => {
    expect(mergeContact(STORED, write({ fields: { title: 'Mathematician' } }))).toMatchObject({ name: 'Ada', title: 'Mathematician' });
  });

  test('createdAt is kept, updatedAt moves', () => {
    expect(mergeContact(STORED, write())).toMatchObject({ createdAt: STORED.createdAt, updatedAt: '2026-11-21T10:00:00.000Z' });
  });

  test('the source is the one sent, else the stored one', () => {
    expect(mergeContact(STORED, write()).source).toBe('ads');
    expect(mergeContact(STORED, write({ source: 'manual' })).source).toBe('manual');
  });

  test('the company link is set once: a later link to another company is ignored', () => {
    expect(mergeContact(STORED, write({ companyId: 'co_000000000000000b' })).companyId).toBe('co_000000000000000a');
    expect(mergeContact({ ...STORED, companyId: undefined }, write({ companyId: 'co_000000000000000b' })).companyId).toBe('co_000000000000000b');
  });

  test('what enrichment wrote is left alone', () => {
    const enriched: Contact = {
      ...STORED,
      location: 'London',
      enriched: true,
      enrichment: { provider: 'P', at: STORED.createdAt, fields: { location: 'London' } },
    };
    expect(mergeContact(enriched, write({ fields: { name: 'Ada L.' } }))).toMatchObject({
      location: 'London',
      enriched: true,
      enrichment: enriched.enrichment,
    });
  });
});
