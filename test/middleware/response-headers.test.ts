import middy from '@middy/core';
import { responseHeaders } from '../../lambda/api/middleware/response-headers';
import { context } from '../support/events';

describe('responseHeaders', () => {
  test('adds no-store and nosniff, and strips any Access-Control-* header', async () => {
    const handler = middy()
      .use(responseHeaders())
      .handler(async () => ({
        statusCode: 200,
        headers: { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*', 'access-control-max-age': 60 },
        body: '{}',
      }));
    const res = await handler({}, context());
    expect(res.headers).toEqual({
      'Content-Type': 'application/json',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
  });
});
