import { createHash } from 'node:crypto';
import { companyId, COMPANY_ID_PATTERN } from '../../../../lambda/contacts/domain/company-id';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('companyId', () => {
  test('is co_ + the first 16 hex of sha256("<factory>:<domain>"), the shape COMPANY_ID_PATTERN accepts', () => {
    expect(companyId('fac_1', 'acme.io')).toBe(`co_${sha('fac_1:acme.io').slice(0, 16)}`);
    expect(COMPANY_ID_PATTERN.test(companyId('fac_1', 'acme.io'))).toBe(true);
  });

  test('differs between factories for one domain', () => {
    expect(companyId('fac_1', 'acme.io')).not.toBe(companyId('fac_2', 'acme.io'));
  });

  // Companies are keyed by these ids: any change to how they are computed orphans existing data, so a value is pinned.
  test('keeps its known value', () => {
    expect(companyId('fac_1', 'example.com')).toBe('co_dd8a38c2882a72a6');
  });
});
