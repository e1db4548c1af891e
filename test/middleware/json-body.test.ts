import middy from '@middy/core';
import { jsonBody } from '../../lambda/api/middleware/json-body';
import { context, errorMessage, proxyEvent } from '../support/events';

const handler = middy()
  .use(jsonBody())
  .handler(async (event: { body: unknown }) => ({ statusCode: 200, body: event.body }));

describe('jsonBody', () => {
  test('parses the body into event.body', async () => {
    const res = await handler(proxyEvent({ body: '{"email":"a@b.co"}' }), context());
    expect(res.body).toEqual({ email: 'a@b.co' });
  });

  test('decodes a base64 body first', async () => {
    const res = await handler(proxyEvent({ body: Buffer.from('[1]').toString('base64'), isBase64Encoded: true }), context());
    expect(res.body).toEqual([1]);
  });

  test('answers 400 for a base64 body that is not UTF-8', async () => {
    const bytes = Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]); // {"n":"\xff\xfe"}
    const error = await handler(proxyEvent({ body: bytes.toString('base64'), isBase64Encoded: true }), context()).catch((e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 400 });
    expect(errorMessage(error)).toMatch(/^Request body is not valid UTF-8/);
  });

  test('answers 400 for malformed JSON, with the parser\'s reason', async () => {
    const error = await handler(proxyEvent({ body: '{"a":}' }), context()).catch((e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 400 });
    expect(errorMessage(error)).toMatch(/^Request body is not valid JSON: Unexpected token/);
  });

  test('keeps the message short whatever the body', async () => {
    const error = await handler(proxyEvent({ body: `{"a": ${'x'.repeat(100_000)}}` }), context()).catch((e: unknown) => e);
    expect(errorMessage(error).length).toBeLessThan(250);
  });

  test('answers 400 for an empty or missing body', async () => {
    for (const body of [null, '', '  ']) {
      await expect(handler(proxyEvent({ body }), context())).rejects.toMatchObject({ statusCode: 400 });
    }
  });
});
