import fc from 'fast-check';
import { domainToASCII } from 'node:url';
import { contactId as offlineContactId, InvalidEmailError } from '../../client/src/index';
import { domainToASCII as shimDomainToASCII } from '../../client/src/shims/node-url';
import { contactId } from '../../lambda/contacts/domain/contact-id';
import { normalizeEmail } from '../../lambda/kernel/email';

/**
 * The client computes contact ids with the service's own rules, compiled in
 * (client/build.ts): the offline id must be the service's for every address,
 * and the web shim of node:url's domainToASCII (the email rule's IDNA step
 * outside Node) must agree with Node's.
 */
const letters = fc.constantFrom(...'aAbZé É ß ẞ ı İ ǅ ω Ω ＡＢ１ ٣ - . _ + ü Ü 中 文 x-- ňÑ ́'.split(' ').flatMap((s) => [...s]));
const hostLike = fc.array(fc.oneof(letters, fc.constantFrom('-', '.', 'xn--', '1', 'a')), { maxLength: 12 }).map((parts) => parts.join(''));
const addressLike = fc
  .tuple(
    fc.oneof(
      fc.emailAddress(),
      fc.tuple(hostLike, hostLike).map(([a, b]) => `${a}@${b}.${b || 'com'}`),
    ),
    fc.boolean(),
  )
  .map(([email, upper]) => (upper ? email.toUpperCase() : email));

describe('the client and the service share their rules', () => {
  test("the offline contactId is the service's id for every address the service accepts, and refused where the service refuses", async () => {
    await fc.assert(
      fc.asyncProperty(addressLike, async (email) => {
        const check = normalizeEmail(email);
        if (check.ok) {
          expect(await offlineContactId('fac_same', email)).toBe(contactId('fac_same', check.email));
        } else {
          await expect(offlineContactId('fac_same', email)).rejects.toEqual(new InvalidEmailError(check.problem));
        }
      }),
      { numRuns: 500 },
    );
  });

  test("the node:url shim's domainToASCII agrees with Node's", () => {
    fc.assert(
      fc.property(fc.oneof(hostLike, fc.string({ unit: 'grapheme', maxLength: 12 }), fc.domain()), (label) => {
        expect(shimDomainToASCII(label)).toBe(domainToASCII(label));
      }),
      { numRuns: 2000 },
    );
  });
});
