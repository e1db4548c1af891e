import middy from '@middy/core';
import { requestId } from '../../../../../lambda/infrastructure/http/middleware/request-id';
import { apiError } from '../../../../../lambda/infrastructure/http/responses';
import httpErrorHandler from '@middy/http-error-handler';
import { proxyEvent, context } from '../../../../support/events';

describe('requestId', () => {
  test("puts API Gateway's request id on a successful response", async () => {
    const handler = middy()
      .use(requestId())
      .handler(async () => ({ statusCode: 200, headers: { A: 'b' }, body: '{}' }));
    const res = await handler(proxyEvent({ requestContext: { requestId: 'gw-1' } as never }), context());
    expect(res.headers).toEqual({ A: 'b', 'X-Request-Id': 'gw-1' });
  });

  test('puts it on an error response too', async () => {
    const handler = middy()
      .use(requestId())
      .use(httpErrorHandler({ logger: false }))
      .handler(async () => {
        throw apiError(404, 'nope');
      });
    const res = await handler(proxyEvent({ requestContext: { requestId: 'gw-2' } as never }), context());
    expect(res).toMatchObject({ statusCode: 404, headers: { 'X-Request-Id': 'gw-2' } });
  });

  test('falls back to the Lambda request id without a gateway request id', async () => {
    const handler = middy()
      .use(requestId())
      .handler(async () => ({ statusCode: 200, body: '{}' }));
    const res = await handler(proxyEvent(), context());
    expect(res.headers).toEqual({ 'X-Request-Id': 'test-request' });
  });
});
