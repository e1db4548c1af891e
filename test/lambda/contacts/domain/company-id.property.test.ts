import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { companyId } from '../../../../lambda/contacts/domain/company-id';
import { normalizeDomain } from '../../../../lambda/contacts/domain/normalize-domain';
import { companyDomain } from '../../../../tools/fuzz/values';

const sha16 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);
const factoryId = fc.stringMatching(/^fac_[A-Za-z0-9_-]{1,30}$/);

describe('companyId (property)', () => {
  test('is co_ + the first 16 hex of sha256("<factoryId>:<domain>")', () => {
    fc.assert(
      fc.property(factoryId, companyDomain, (factory, { stored }) => {
        expect(companyId(factory, stored)).toBe(`co_${sha16(`${factory}:${stored}`)}`);
      }),
    );
  });

  test('every way of writing a domain gives the same company id, and another factory another one', () => {
    fc.assert(
      fc.property(factoryId, factoryId, companyDomain, (a, b, { raw, stored }) => {
        expect(companyId(a, normalizeDomain(raw) as string)).toBe(companyId(a, stored));
        if (a !== b) expect(companyId(b, stored)).not.toBe(companyId(a, stored));
      }),
    );
  });
});
