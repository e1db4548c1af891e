import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { contactId } from '../../../../lambda/contacts/domain/contact-id';
import { isContactId } from '../../../../lambda/kernel/contact-id-digest';
import { normalizeEmail } from '../../../../lambda/kernel/email';
import { sentEmail, storedEmail, withCase } from '../../../../tools/fuzz/values';
import { stored } from '../../../support/emails';

const sha16 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);
const factoryId = fc.stringMatching(/^fac_[A-Za-z0-9_-]{1,30}$/);
const anyText = fc.oneof(storedEmail, fc.string({ unit: 'binary', maxLength: 60 }), fc.string({ unit: 'grapheme', maxLength: 40 }));

describe('contactId (property)', () => {
  test('is ct_ + the first 16 hex of sha256("<factoryId>:<stored email>"), the trimmed lowercase address, a shape isContactId accepts', () => {
    fc.assert(
      fc.property(factoryId, anyText, (factory, raw) => {
        const check = normalizeEmail(raw);
        if (!check.ok) return;
        const id = contactId(factory, check.email);
        expect(id).toBe(`ct_${sha16(`${factory}:${raw.trim().toLowerCase()}`)}`);
        expect(isContactId(id)).toBe(true);
      }),
    );
  });

  test('is stable under the email’s case', () => {
    fc.assert(
      fc.property(factoryId, storedEmail, fc.nat(), (factory, email, mask) => {
        expect(contactId(factory, stored(withCase(email, mask)))).toBe(contactId(factory, stored(email)));
      }),
    );
  });

  test('an address sent in any case and padding lands on the id of its stored form (what the upsert and the read derive)', () => {
    fc.assert(
      fc.property(factoryId, sentEmail(), (factory, { raw, stored: storedForm }) => {
        const check = normalizeEmail(raw);
        expect(check.ok && contactId(factory, check.email)).toBe(contactId(factory, stored(storedForm)));
      }),
    );
  });

  test('differs between factories for the same email', () => {
    fc.assert(
      fc.property(factoryId, factoryId, storedEmail, (a, b, email) => {
        fc.pre(a !== b);
        expect(contactId(a, stored(email))).not.toBe(contactId(b, stored(email)));
      }),
    );
  });

  test('isContactId refuses upper-case hex and other prefixes', () => {
    fc.assert(
      fc.property(factoryId, storedEmail, (factory, email) => {
        const id = contactId(factory, stored(email));
        fc.pre(/[a-f]/.test(id.slice(3)));
        expect(isContactId(id.toUpperCase())).toBe(false);
        expect(isContactId(`co_${id.slice(3)}`)).toBe(false);
      }),
    );
  });
});
