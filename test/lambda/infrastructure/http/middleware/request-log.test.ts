import { requestLogFields } from '../../../../../lambda/infrastructure/http/middleware/request-log';
import { newRequestState } from '../../../../../lambda/infrastructure/http/request-state';
import { proxyEvent } from '../../../../support/events';

const fields = (status: number, extra: Partial<ReturnType<typeof newRequestState>> = {}) =>
  requestLogFields({
    event: proxyEvent({
      path: '/api/v1/contacts/ada@example.com',
      queryStringParameters: { email: 'ada@example.com' },
      requestContext: { requestId: 'gw-1' } as never,
    }),
    context: { awsRequestId: 'lambda-1' },
    state: { ...newRequestState({}), calls: { calls: 2, latenciesMs: [3.2, 4.1] }, ...extra },
    route: 'GET /api/v1/contacts/{id}',
    status,
    startedAt: performance.now(),
  });

describe("a request's log line", () => {
  test('its ids, route template, status, latency and DynamoDB calls, and the caller', () => {
    const line = fields(200, { caller: { factoryId: 'fac_a', keyId: 'key_a' } });
    expect(line).toMatchObject({
      requestId: 'gw-1',
      lambdaRequestId: 'lambda-1',
      route: 'GET /api/v1/contacts/{id}',
      status: 200,
      dynamoCalls: 2,
      dynamoMs: 7,
      factoryId: 'fac_a',
      keyId: 'key_a',
    });
    expect(line.latencyMs).toEqual(expect.any(Number));
    expect(line.errorClass).toBeUndefined();
  });

  test('never the raw path or the query string (they can hold an email or a key)', () => {
    expect(JSON.stringify(fields(200))).not.toContain('ada@example.com');
  });

  test("a 5xx names the class of the error behind it, 'unknown' when none was noted", () => {
    expect(fields(503, { failure: 'StorageUnavailableError' }).errorClass).toBe('StorageUnavailableError');
    expect(fields(500).errorClass).toBe('unknown');
  });

  test("what the API noted is added, and only a container's first line says it was a cold start", () => {
    expect(fields(202, { logFields: { accepted: 3 } }).accepted).toBe(3);
    expect(fields(200).coldStart).toBe(false);
  });
});
