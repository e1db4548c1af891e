import { companyView, controlView } from '../../../lambda/control/view';
import type { StoredContact } from '../../../lambda/contacts/enrichment/ports';

const contact = (fields: Partial<StoredContact> = {}): StoredContact => ({
  id: 'ct_0123456789abcdef',
  factoryId: 'fac_u',
  email: 'a@b.co',
  source: 'api',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
  ...fields,
});

describe('controlView', () => {
  test('is the public view followed by what only the control room sees, in a fixed order', () => {
    const view = controlView(
      contact({
        title: 'T',
        enrichmentCheckedAt: '2026-01-05T00:00:00.000Z',
        cleared: { title: { reason: 'r', by: 'b', at: 'a', value: 'v' }, name: { by: 'b', value: 'n', at: 'a' } },
        creationToken: 'never shown',
      } as Partial<StoredContact>),
    );
    expect(Object.keys(view)).toEqual(['id', 'factoryId', 'email', 'title', 'source', 'createdAt', 'updatedAt', 'enrichmentCheckedAt', 'cleared']);
    expect(JSON.stringify(view.cleared)).toBe('{"name":{"value":"n","at":"a","by":"b"},"title":{"value":"v","at":"a","by":"b","reason":"r"}}');
  });
});

test('a company shows as its id, domain, name and creation time, nothing else', () => {
  const company = { id: 'co_0123456789abcdef', domain: 'acme.io', name: 'Acme', createdAt: '2026-01-01T00:00:00.000Z', companyId: 'co_0123456789abcdef' };
  expect(companyView(company)).toEqual({ id: 'co_0123456789abcdef', domain: 'acme.io', name: 'Acme', createdAt: '2026-01-01T00:00:00.000Z' });
});
