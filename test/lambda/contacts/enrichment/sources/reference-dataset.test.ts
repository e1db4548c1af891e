import { parseReferenceLine } from '../../../../../lambda/contacts/enrichment/sources/reference-dataset';

describe("a line of the vendor's dataset", () => {
  test.each([
    [
      '{"email":"Ada@Example.com","name":" Ada ","title":"CTO","phone":"1","location":"London","extra":1}',
      { ok: true, record: { email: 'ada@example.com', name: 'Ada', title: 'CTO', phone: '1', location: 'London' } },
    ],
    ['{"email":"b@c.co","name":""}', { ok: true, record: { email: 'b@c.co' } }],
    ['   ', { ok: 'blank' }],
    ['{oops', { ok: false, problem: 'not valid JSON' }],
    ['[1,2]', { ok: false, problem: 'not a JSON object' }],
    ['{"name":"x"}', { ok: false, problem: 'no "email" string' }],
    ['{"email":"not an email"}', { ok: false, problem: expect.stringContaining('email') }],
  ])('parseReferenceLine(%s)', (line, expected) => {
    expect(parseReferenceLine(line)).toEqual(expected);
  });

  test('parseReferenceLine skips a byte order mark, refuses replacement characters, strips control characters', () => {
    expect(parseReferenceLine('\ufeff{"email":"a@b.co"}')).toEqual({ ok: true, record: { email: 'a@b.co' } });
    expect(parseReferenceLine('{"email":"a@b.co","name":"Bad \ufffd byte"}')).toEqual({ ok: false, problem: 'not valid UTF-8' });
    const dirty = JSON.stringify({ email: 'a@b.co', name: 'Ada\u0000 \u202eLovelace', title: '\u0007' });
    expect(parseReferenceLine(dirty)).toEqual({ ok: true, record: { email: 'a@b.co', name: 'Ada Lovelace' } });
  });

  test("parseReferenceLine follows the API's free-text rule: a lone surrogate refuses the line, naming the field", () => {
    expect(parseReferenceLine('{"email":"a@b.co","title":"CTO \\ud800"}')).toEqual({
      ok: false,
      problem: expect.stringMatching(/^title is not well-formed Unicode: it has a lone surrogate \(U\+D800\)/),
    });
  });

  test("parseReferenceLine follows the API's free-text rule: line breaks become spaces, marks such as U+200F stay", () => {
    const line = JSON.stringify({ email: 'a@b.co', name: 'Ada\r\nLovelace', location: '\u05ea\u05dc \u05d0\u05d1\u05d9\u05d1\u200f' });
    expect(parseReferenceLine(line)).toEqual({
      ok: true,
      record: { email: 'a@b.co', name: 'Ada Lovelace', location: '\u05ea\u05dc \u05d0\u05d1\u05d9\u05d1\u200f' },
    });
  });

  test("parseReferenceLine keys a person by the email's stored form and refuses what the API refuses", () => {
    expect(parseReferenceLine('{"email":"\u212Aa@example.com"}')).toEqual({ ok: false, problem: expect.stringMatching(/NFC/) });
    expect(parseReferenceLine('{"email":"a..b@example.com"}')).toEqual({ ok: false, problem: expect.stringMatching(/two dots/) });
  });

  test('parseReferenceLine clips long values', () => {
    const result = parseReferenceLine(JSON.stringify({ email: 'a@b.co', name: 'n'.repeat(300), phone: '9'.repeat(100) }));
    expect(result).toMatchObject({ ok: true, record: { name: 'n'.repeat(200), phone: '9'.repeat(64) } });
  });
});
