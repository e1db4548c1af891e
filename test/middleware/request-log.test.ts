import middy from '@middy/core';
import { proxyEvent, context } from '../support/events';

describe('requestLog', () => {
  const original = process.env.LOG_LEVEL;
  afterEach(() => {
    process.env.LOG_LEVEL = original;
    jest.restoreAllMocks();
  });

  test('logs method, path, status and caller, never the query string, headers or body', async () => {
    process.env.LOG_LEVEL = 'info';
    let requestLog!: typeof import('../../lambda/api/middleware/request-log').requestLog;
    jest.isolateModules(() => {
      ({ requestLog } = require('../../lambda/api/middleware/request-log'));
    });
    const lines: string[] = [];
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    const ctx = { ...context(), caller: { factoryId: 'fac_log', keyId: 'key_log' } };
    const handler = middy().use(requestLog()).handler(async () => ({ statusCode: 201, body: '{"contact":{}}' }));
    await handler(
      proxyEvent({
        httpMethod: 'POST',
        path: '/api/v1/contacts',
        queryStringParameters: { email: 'secret.person@example.com' },
        headers: { authorization: 'Bearer dfsk_topsecret' },
        body: '{"email":"secret.person@example.com"}',
      }),
      ctx as never,
    );
    const entry = JSON.parse(lines.join(''));
    expect(entry).toMatchObject({ message: 'request', method: 'POST', path: '/api/v1/contacts', status: 201, factoryId: 'fac_log', keyId: 'key_log' });
    expect(lines.join('')).not.toMatch(/secret|dfsk_/);
  });
});
