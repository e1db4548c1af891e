import { newRequestState } from '../../../../../lambda/infrastructure/http/request-state';
import { bodyBytes, bodyLimit } from '../../../../../lambda/infrastructure/http/steps/body-limit';
import { proxyEvent, thrown } from '../../../../support/events';

const check = (body: string) => bodyLimit(10)(proxyEvent({ body }), newRequestState({}));

describe('bodyLimit', () => {
  test('passes a body of exactly the limit', () => {
    expect(check('0123456789')).toBeUndefined();
  });

  test('refuses one byte more with 413', () => {
    expect(thrown(() => check('01234567890'))).toMatchObject({ statusCode: 413 });
  });

  test('counts UTF-8 bytes, not characters', () => {
    expect(bodyBytes('éééééé', false)).toBe(12);
    expect(thrown(() => check('éééééé'))).toMatchObject({ statusCode: 413 });
  });

  test('counts the decoded size of a base64 body', () => {
    for (const text of ['', 'a', 'ab', 'abc', 'abcd', 'é'.repeat(7)]) {
      expect(bodyBytes(Buffer.from(text).toString('base64'), true)).toBe(Buffer.byteLength(text));
    }
  });
});
