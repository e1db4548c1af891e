import fc from 'fast-check';
import { normalizeDomain } from '../../../../lambda/contacts/domain/normalize-domain';
import { companyDomain } from '../../../../tools/fuzz/values';

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.string({ unit: 'grapheme-ascii', maxLength: 80 }),
  companyDomain.map((d) => d.raw),
);

describe('normalizeDomain (property)', () => {
  test('drops scheme, leading www., path, trailing slash, port, case and padding, as docs/contacts-api.md#upsert-a-contact--post-apiv1contacts says', () => {
    fc.assert(
      fc.property(companyDomain, ({ raw, stored }) => {
        expect(normalizeDomain(raw)).toBe(stored);
      }),
    );
  });

  test('is idempotent: a normalized domain normalizes to itself', () => {
    fc.assert(
      fc.property(anyText, (raw) => {
        const domain = normalizeDomain(raw);
        if (domain !== undefined) expect(normalizeDomain(domain)).toBe(domain);
      }),
    );
  });

  test('never throws, and gives either nothing or a bare lowercase ASCII host name', () => {
    fc.assert(
      fc.property(anyText, (raw) => {
        const domain = normalizeDomain(raw);
        if (domain === undefined) return;
        expect(domain).toMatch(HOSTNAME);
        // `www.` is dropped whenever a registrable name is left.
        if (domain.startsWith('www.')) expect(domain.slice(4)).not.toContain('.');
      }),
    );
  });

  test('the same company whatever case the caller types', () => {
    fc.assert(
      fc.property(anyText, (raw) => {
        expect(normalizeDomain(raw.toUpperCase())).toBe(normalizeDomain(raw.toLowerCase()));
      }),
    );
  });
});
