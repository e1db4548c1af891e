import { createHash } from 'node:crypto';
import { companyId } from '../../lambda/domain/company-id';
import { contactId, isContactId } from '../../lambda/domain/contact-id';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('contactId', () => {
  test('is ct_ + the first 16 hex of sha256("<factory>:<lowercased email>")', () => {
    expect(contactId('fac_1', 'Ada@Example.com')).toBe(`ct_${sha('fac_1:ada@example.com').slice(0, 16)}`);
  });

  test('differs between factories', () => {
    expect(contactId('fac_1', 'a@b.co')).not.toBe(contactId('fac_2', 'a@b.co'));
  });

  test('isContactId accepts exactly that shape', () => {
    expect(isContactId(contactId('fac_1', 'a@b.co'))).toBe(true);
    for (const bad of ['ct_', 'ct_0123456789ABCDEF', 'co_0123456789abcdef', 'ct_0123456789abcdef0']) {
      expect(isContactId(bad)).toBe(false);
    }
  });
});

describe('companyId', () => {
  test('is co_ + the first 16 hex of sha256("<factory>:<domain>")', () => {
    expect(companyId('fac_1', 'acme.io')).toBe(`co_${sha('fac_1:acme.io').slice(0, 16)}`);
  });
});
