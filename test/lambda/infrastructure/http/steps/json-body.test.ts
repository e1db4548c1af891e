import { jsonBody } from '../../../../../lambda/infrastructure/http/steps/json-body';
import { errorMessage, proxyEvent, thrown } from '../../../../support/events';

const read = (overrides: Parameters<typeof proxyEvent>[0]) => jsonBody('{"email": "a@b.co"}').read(proxyEvent(overrides));

describe('jsonBody', () => {
  test('reads the body as JSON', () => {
    expect(read({ body: '{"email":"a@b.co"}' })).toEqual({ email: 'a@b.co' });
  });

  test('decodes a base64 body first', () => {
    expect(read({ body: Buffer.from('[1]').toString('base64'), isBase64Encoded: true })).toEqual([1]);
  });

  test('answers 400 for a base64 body that is not UTF-8', () => {
    const bytes = Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]); // {"n":"\xff\xfe"}
    const error = thrown(() => read({ body: bytes.toString('base64'), isBase64Encoded: true }));
    expect(error).toMatchObject({ statusCode: 400 });
    expect(errorMessage(error)).toMatch(/^Request body is not valid UTF-8/);
  });

  test("answers 400 for malformed JSON, with the parser's reason", () => {
    const error = thrown(() => read({ body: '{"a":}' }));
    expect(error).toMatchObject({ statusCode: 400 });
    expect(errorMessage(error)).toMatch(/^Request body is not valid JSON: Unexpected token/);
  });

  test('keeps the message short whatever the body', () => {
    const error = thrown(() => read({ body: `{"a": ${'x'.repeat(100_000)}}` }));
    expect(errorMessage(error).length).toBeLessThan(250);
  });

  test('answers 400 for an empty or missing body', () => {
    for (const body of [null, '', '  ']) {
      expect(thrown(() => read({ body }))).toMatchObject({ statusCode: 400 });
    }
  });
});
