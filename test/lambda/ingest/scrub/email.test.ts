import { emailRule } from '../../../../lambda/ingest/scrub/email';
import { applied } from '../../../support/scrub';

describe('email rule', () => {
  test.each(
    [
      ['contact ada@example.com now', 'contact [Filtered:email] now'],
      ['Ada.Lovelace+crm@mail.example.co.uk.', '[Filtered:email].'],
      ['https://h/invite?to=ada%40example.com&x=1', 'https://h/invite?to=[Filtered:email]&x=1'],
      ['mailto:ada@example.io', 'mailto:[Filtered:email]'],
      ['"user":"bob_1@example.org"', '"user":"[Filtered:email]"'],
      ['an international domain', 'from jürgen@bücher.de', 'from [Filtered:email]'],
      ['a Cyrillic domain', 'ада@пример.рф', '[Filtered:email]'],
      ['a punycode domain', 'ada@xn--bcher-kva.xn--p1ai', '[Filtered:email]'],
      ['a full-width at sign', 'ada＠example.com', '[Filtered:email]'],
    ].map((row) => (row.length === 3 ? [row[1], row[2]] : row)),
  )('replaces an address in free text: %s', (text, expected) => {
    expect(applied(emailRule, text)).toEqual({ text: expected, count: 1 });
  });

  test.each([
    ['a Firefox frame with a URL', 'render@https://cdn.example.com/app.js:1:2'],
    ['a Firefox frame with a bare script name', 'render@app.js:10:5'],
    ['a release', 'web@1.4.2'],
    ['a scoped package', '@babel/core@7.26.0'],
    ['an at sign in prose', 'meet @ noon'],
  ])('keeps %s', (_, text) => {
    expect(applied(emailRule, text)).toEqual({ text, count: 0 });
  });
});
