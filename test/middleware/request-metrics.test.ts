import middy from '@middy/core';
import { proxyEvent, context } from '../support/events';

interface Emf {
  _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] };
  [name: string]: unknown;
}

/** The middleware with metrics on (the test env turns them off), and the EMF documents it writes. */
function loadWithMetrics() {
  const original = process.env.POWERTOOLS_METRICS_DISABLED;
  delete process.env.POWERTOOLS_METRICS_DISABLED;
  let requestMetrics!: typeof import('../../lambda/api/middleware/request-metrics').requestMetrics;
  let stats!: typeof import('../../lambda/observability/dynamo-stats');
  jest.isolateModules(() => {
    ({ requestMetrics } = require('../../lambda/api/middleware/request-metrics'));
    stats = require('../../lambda/observability/dynamo-stats');
  });
  process.env.POWERTOOLS_METRICS_DISABLED = original;
  const lines: string[] = [];
  jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  const documents = (): Emf[] => lines.join('').trim().split('\n').map((line) => JSON.parse(line) as Emf);
  return { requestMetrics, stats, documents };
}

async function serve(status: number, method = 'POST', dynamoLatencies: number[] = []) {
  const { requestMetrics, stats, documents } = loadWithMetrics();
  const handler = middy()
    .use(requestMetrics(() => `${method} /api/v1/contacts`))
    .handler(async () => {
      const current = stats.currentDynamoStats();
      if (current) {
        current.calls += dynamoLatencies.length;
        current.latenciesMs.push(...dynamoLatencies);
      }
      return { statusCode: status, body: '{}' };
    });
  await stats.withDynamoStats(() => handler(proxyEvent({ httpMethod: method }), context() as never));
  return documents();
}

describe('requestMetrics', () => {
  afterEach(() => jest.restoreAllMocks());

  test('counts the request, its outcome flags and its DynamoDB calls under the service dimension', async () => {
    const [totals] = await serve(201, 'POST', [4, 6]);
    expect(totals?._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: 'ContactsService', Dimensions: [['service']] });
    expect(totals).toMatchObject({
      service: 'contacts-api',
      RequestsTotal: 1,
      ServerErrors: 0,
      StorageUnavailable: 0,
      RateLimited: 0,
      ContactsCreated: 1,
      DynamoDBCalls: 2,
      DynamoDBLatency: [4, 6],
    });
  });

  test('counts an upsert answered 200 as an update', async () => {
    const [totals] = await serve(200);
    expect(totals).toMatchObject({ ContactsUpdated: 1 });
    expect(totals).not.toHaveProperty('ContactsCreated');
  });

  test.each([
    [503, { ServerErrors: 1, StorageUnavailable: 1, RateLimited: 0 }],
    [500, { ServerErrors: 1, StorageUnavailable: 0, RateLimited: 0 }],
    [429, { ServerErrors: 0, StorageUnavailable: 0, RateLimited: 1 }],
  ])('flags a %i', async (status, flags) => {
    const [totals] = await serve(status, 'GET');
    expect(totals).toMatchObject(flags);
  });

  test('counts Requests by route and status class in a second document', async () => {
    const [, byRoute] = await serve(404, 'GET');
    expect(byRoute?._aws.CloudWatchMetrics[0]?.Dimensions).toEqual([['service', 'route', 'statusClass']]);
    expect(byRoute).toMatchObject({ route: 'GET /api/v1/contacts', statusClass: '4xx', Requests: 1 });
  });
});
