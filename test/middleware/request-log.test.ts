import middy from '@middy/core';
import type { ApiContext } from '../../lambda/api/types';
import { proxyEvent, context } from '../support/events';

/** The middleware with a logger built at INFO (the test env is silent), and the lines it writes. */
function loadAtInfo() {
  process.env.LOG_LEVEL = 'INFO';
  let requestLog!: typeof import('../../lambda/api/middleware/request-log').requestLog;
  jest.isolateModules(() => {
    ({ requestLog } = require('../../lambda/api/middleware/request-log'));
  });
  // Errors and warnings go to stderr, the rest to stdout: on Lambda both reach CloudWatch Logs.
  const lines: string[] = [];
  for (const stream of [process.stdout, process.stderr]) {
    jest.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
  }
  return { requestLog, entries: () => lines.join('').trim().split('\n').map((line) => JSON.parse(line)) };
}

const routeOf = () => 'POST /api/v1/contacts';

describe('requestLog', () => {
  const original = process.env.LOG_LEVEL;
  afterEach(() => {
    process.env.LOG_LEVEL = original;
    jest.restoreAllMocks();
  });

  test('writes one line with request id, route, status, latency, DynamoDB calls, factory and key id', async () => {
    const { requestLog, entries } = loadAtInfo();
    const ctx: ApiContext = { ...context(), caller: { factoryId: 'fac_log', keyId: 'key_log' }, calls: { calls: 0, latenciesMs: [] } };
    const handler = middy<never, unknown, Error, ApiContext>()
      .use(requestLog(routeOf))
      .handler(async (_event, c) => {
        // What the stores record in the request's call log.
        c.calls?.latenciesMs.push(3, 4);
        if (c.calls) c.calls.calls += 2;
        return { statusCode: 201, body: '{}' };
      });
    await handler(proxyEvent({ httpMethod: 'POST', requestContext: { requestId: 'req-123' } as never }) as never, ctx);
    expect(entries()).toEqual([
      expect.objectContaining({
        level: 'INFO',
        message: 'request',
        requestId: 'req-123',
        lambdaRequestId: 'test-request',
        route: 'POST /api/v1/contacts',
        status: 201,
        latencyMs: expect.any(Number),
        dynamoCalls: 2,
        dynamoMs: 7,
        factoryId: 'fac_log',
        keyId: 'key_log',
      }),
    ]);
  });

  test('never writes the path, query string, headers or body', async () => {
    const { requestLog, entries } = loadAtInfo();
    const handler = middy().use(requestLog(routeOf)).handler(async () => ({ statusCode: 200, body: '{"contact":{}}' }));
    await handler(
      proxyEvent({
        httpMethod: 'POST',
        path: '/api/v1/contacts/private.person@example.com',
        queryStringParameters: { email: 'secret.person@example.com' },
        headers: { authorization: 'Bearer dfsk_topsecret' },
        body: '{"email":"secret.person@example.com"}',
      }),
      context() as never,
    );
    const text = JSON.stringify(entries());
    expect(text).not.toMatch(/person@|dfsk_|Bearer/);
  });

  test('logs a 5xx at error level with the class of the error behind it', async () => {
    const { requestLog, entries } = loadAtInfo();
    const ctx = { ...context(), failure: 'StorageUnavailableError(TimeoutError)' };
    const handler = middy().use(requestLog(routeOf)).handler(async () => ({ statusCode: 503, body: '{}' }));
    await handler(proxyEvent(), ctx as never);
    expect(entries()).toEqual([
      expect.objectContaining({ level: 'ERROR', status: 503, errorClass: 'StorageUnavailableError(TimeoutError)' }),
    ]);
  });

  test('writes nothing at level SILENT', async () => {
    process.env.LOG_LEVEL = 'silent';
    let requestLog!: typeof import('../../lambda/api/middleware/request-log').requestLog;
    jest.isolateModules(() => {
      ({ requestLog } = require('../../lambda/api/middleware/request-log'));
    });
    const writes = [process.stdout, process.stderr].map((stream) => jest.spyOn(stream, 'write').mockImplementation(() => true));
    await middy().use(requestLog(routeOf)).handler(async () => ({ statusCode: 503, body: '{}' }))(proxyEvent(), context() as never);
    for (const write of writes) expect(write).not.toHaveBeenCalled();
  });
});
