import { cardRule, luhnHolds } from '../../../../lambda/ingest/scrub/card';
import { applied, cardNumber } from '../../../support/scrub';

describe('card rule', () => {
  test.each([
    ['4111111111111111', '[Filtered:card]'],
    ['paid with 4111 1111 1111 1111.', 'paid with [Filtered:card].'],
    ['card=4111-1111-1111-1111&x=1', 'card=[Filtered:card]&x=1'],
    ['amex 3782 822463 10005 declined', 'amex [Filtered:card] declined'],
    ['5555555555554444', '[Filtered:card]'],
    ['{"pan":"6011111111111117"}', '{"pan":"[Filtered:card]"}'],
    ['4111.1111.1111.1111', '[Filtered:card]'],
    ['card_4111111111111111', 'card_[Filtered:card]'],
    ['on 2026.11.25 4111111111111111', 'on 2026.11.25 [Filtered:card]'],
  ])('replaces a Luhn-valid card number: %s', (text, expected) => {
    expect(applied(cardRule, text)).toEqual({ text: expected, count: 1 });
  });

  test('a card followed by another group of digits is replaced and the group kept', () => {
    expect(applied(cardRule, '4111 1111 1111 1111 2 items').text).toBe('[Filtered:card] 2 items');
  });

  test.each([
    ['a number that fails Luhn', '4111111111111112'],
    ['an epoch in milliseconds', 'at 1732612345678'],
    ['an ISO time', '2026-11-27T12:14:36.123Z'],
    ['a UUID of digits', '41111111-1111-1111-1111-111111111111'],
    ['digits inside a hex id', 'id a4111111111111111f'],
    ['a phone number', '+49 30 1234567'],
    ['a short order number', 'order 123456789012'],
    ['a dotted version', 'build 4.1.11.1111111111'],
    ['a decimal', 'pi is 3.14159265358979'],
  ])('keeps %s', (_, text) => {
    expect(applied(cardRule, text)).toEqual({ text, count: 0 });
  });

  test('the Luhn check holds for valid numbers of every network prefix and fails one digit off', () => {
    for (const prefix of ['4', '51', '2221', '34', '37', '36', '6011', '62']) {
      const number = cardNumber(prefix, prefix === '34' || prefix === '37' ? 15 : 16);
      expect(luhnHolds(number)).toBe(true);
      expect(applied(cardRule, number).count).toBe(1);
      const off = `${number.slice(0, -1)}${(Number(number.slice(-1)) + 1) % 10}`;
      expect(luhnHolds(off)).toBe(false);
    }
  });
});
