import middy from '@middy/core';
import { refuseOrigin } from '../../../../lambda/contacts/api/refuse-origin';
import { context, errorMessage, proxyEvent } from '../../../support/events';

const handler = middy()
  .use(refuseOrigin())
  .handler(async () => ({ statusCode: 200, body: 'ok' }));

describe('refuseOrigin', () => {
  test('lets a request without Origin through', async () => {
    await expect(handler(proxyEvent({ headers: { host: 'x' } }), context())).resolves.toMatchObject({ statusCode: 200 });
  });

  test('throws 403 when an origin header is present, even empty', async () => {
    for (const origin of ['https://a.example', '']) {
      const error = await handler(proxyEvent({ headers: { origin } }), context()).catch((e: unknown) => e);
      expect(error).toMatchObject({ statusCode: 403 });
      expect(errorMessage(error)).toMatch(/server-to-server/);
    }
  });
});
