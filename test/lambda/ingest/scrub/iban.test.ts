import { ibanChecksumHolds, ibanRule } from '../../../../lambda/ingest/scrub/iban';
import { applied } from '../../../support/scrub';

describe('iban rule', () => {
  test.each([
    ['DE89370400440532013000', '[Filtered:iban]'],
    ['pay to DE89 3704 0044 0532 0130 00 today', 'pay to [Filtered:iban] today'],
    ['GB82 WEST 1234 5698 7654 32', '[Filtered:iban]'],
    ['iban=FR1420041010050500013M02606&x', 'iban=[Filtered:iban]&x'],
    ['NO9386011117947', '[Filtered:iban]'],
    ['BE68539007547034', '[Filtered:iban]'],
    ['be68 5390 0754 7034', '[Filtered:iban]'],
    ['de89370400440532013000', '[Filtered:iban]'],
    ['refund de89 3704 0044 0532 0130 00 now', 'refund [Filtered:iban] now'],
    ['NL03 UKSO PVWF ZXYQ 5A2F QCY7 GK3M a', '[Filtered:iban] a'],
  ])('replaces an IBAN whose check digits hold: %s', (text, expected) => {
    expect(applied(ibanRule, text)).toEqual({ text: expected, count: 1 });
  });

  test.each([
    ['wrong check digits', 'DE88370400440532013000'],
    ['a country without IBANs', 'ZZ89370400440532013000'],
    ['small letters without the length of its country (a hex id)', 'de89370400440532013000ab'],
    ['a digest that starts like one', 'be71096123456769deadbeefdeadbeef'],
    // A property run drew this content hash (seed 397414152): Belgium's length, and its checksum holds.
    ['a content hash with the length and check digits of a Belgian IBAN', 'assets/app-be65a154eb6ebfac.js'],
    ['letters where the country has digits only, in capitals', 'DE0537040044053201300A'],
    ['a word that starts like one', 'AB12CDEFGHIJKLMNOP'],
    ['a version', 'RC12 build'],
  ])('keeps %s', (_, text) => {
    expect(applied(ibanRule, text)).toEqual({ text, count: 0 });
  });

  test('the checksum is ISO 13616 mod 97', () => {
    expect(ibanChecksumHolds('GB82WEST12345698765432')).toBe(true);
    expect(ibanChecksumHolds('GB83WEST12345698765432')).toBe(false);
  });
});
