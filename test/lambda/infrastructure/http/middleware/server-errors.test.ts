import middy from '@middy/core';
import httpErrorHandler from '@middy/http-error-handler';
import { serverErrors } from '../../../../../lambda/infrastructure/http/middleware/server-errors';
import { apiError } from '../../../../../lambda/infrastructure/http/responses';
import { StorageUnavailableError } from '../../../../../lambda/kernel/errors';
import { context } from '../../../../support/events';

/** Each API gives its own 503 message: the middleware knows none. */
const UNAVAILABLE = 'The widget store is temporarily unavailable: retry the same request.';

const failingWith = (error: Error) =>
  middy()
    .use(httpErrorHandler({ logger: false, fallbackMessage: '{"error":"internal"}' }))
    .use(serverErrors(UNAVAILABLE))
    .handler(async () => {
      throw error;
    });

describe('serverErrors', () => {
  test("turns a storage failure into 503 with Retry-After and the API's own message", async () => {
    const res = await failingWith(new StorageUnavailableError('GetItem', new Error('socket hang up')))({}, context());
    expect(res).toMatchObject({ statusCode: 503, headers: { 'Retry-After': '1' } });
    expect(JSON.parse(res.body).error).toBe(UNAVAILABLE);
  });

  test("turns middy's early timeout into 503", async () => {
    const timeout = Object.assign(new Error('aborted'), { name: 'TimeoutError' });
    expect((await failingWith(timeout)({}, context())).statusCode).toBe(503);
  });

  test('leaves an HTTP error as it is', async () => {
    expect((await failingWith(apiError(404, 'nope'))({}, context())).statusCode).toBe(404);
  });

  test('leaves a bug a 500, without its details in the body', async () => {
    const res = await failingWith(new TypeError('x is undefined'))({}, context());
    expect(res).toMatchObject({ statusCode: 500, body: '{"error":"internal"}' });
  });
});
