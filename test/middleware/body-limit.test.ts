import middy from '@middy/core';
import { bodyBytes, bodyLimit } from '../../lambda/api/middleware/body-limit';
import { context, proxyEvent } from '../support/events';

const handler = middy().use(bodyLimit(10)).handler(async () => ({ statusCode: 200, body: '' }));

describe('bodyLimit', () => {
  test('passes a body of exactly the limit', async () => {
    await expect(handler(proxyEvent({ body: '0123456789' }), context())).resolves.toMatchObject({ statusCode: 200 });
  });

  test('refuses one byte more with 413', async () => {
    await expect(handler(proxyEvent({ body: '01234567890' }), context())).rejects.toMatchObject({ statusCode: 413 });
  });

  test('counts UTF-8 bytes, not characters', async () => {
    expect(bodyBytes('éééééé', false)).toBe(12);
    await expect(handler(proxyEvent({ body: 'éééééé' }), context())).rejects.toMatchObject({ statusCode: 413 });
  });

  test('counts the decoded size of a base64 body', () => {
    for (const text of ['', 'a', 'ab', 'abc', 'abcd', 'é'.repeat(7)]) {
      expect(bodyBytes(Buffer.from(text).toString('base64'), true)).toBe(Buffer.byteLength(text));
    }
  });
});
