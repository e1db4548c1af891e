import middy from '@middy/core';
import { requestMetrics } from '../../lambda/api/middleware/request-metrics';
import type { ApiContext } from '../../lambda/api/types';
import { metricsOptionsFromEnv, RequestMetrics } from '../../lambda/observability/metrics';
import { proxyEvent, context } from '../support/events';

interface Directive {
  Namespace: string;
  Dimensions: string[][];
  Metrics: { Name: string; Unit: string }[];
}
interface Emf {
  _aws: { Timestamp: number; CloudWatchMetrics: Directive[] };
  [name: string]: unknown;
}

/** Serves one request through the middleware and returns the lines it wrote. */
async function serve(status: number, method = 'POST', dynamoLatencies: number[] = []): Promise<string[]> {
  const lines: string[] = [];
  const metrics = new RequestMetrics({ namespace: 'ContactsService', service: 'contacts-api', enabled: true }, (line) => lines.push(line));
  const handler = middy<never, unknown, Error, ApiContext>()
    .use(requestMetrics(() => `${method} /api/v1/contacts`, metrics))
    .handler(async (_event, c) => {
      // What the stores record in the request's call log.
      if (c.calls) c.calls.calls += dynamoLatencies.length;
      c.calls?.latenciesMs.push(...dynamoLatencies);
      return { statusCode: status, body: '{}' };
    });
  await handler(proxyEvent({ httpMethod: method }) as never, { ...context(), calls: { calls: 0, latenciesMs: [] } } as ApiContext);
  return lines;
}

async function document(status: number, method?: string, dynamoLatencies?: number[]): Promise<Emf> {
  const [line] = await serve(status, method, dynamoLatencies);
  return JSON.parse(line as string) as Emf;
}

/** The metric names a directive declares, with their units. */
const declared = (directive: Directive | undefined) => Object.fromEntries((directive?.Metrics ?? []).map((m) => [m.Name, m.Unit]));

describe('requestMetrics', () => {
  test('writes exactly one newline-terminated JSON line per request', async () => {
    const lines = await serve(201);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\{.*\}\n$/s);
    expect(lines[0]?.indexOf('\n')).toBe((lines[0]?.length ?? 0) - 1);
  });

  test('counts the request, its outcome flags and its DynamoDB calls under the service dimension', async () => {
    const emf = await document(201, 'POST', [4, 6]);
    const [totals] = emf._aws.CloudWatchMetrics;
    expect(totals).toMatchObject({ Namespace: 'ContactsService', Dimensions: [['service']] });
    expect(declared(totals)).toEqual({
      RequestsTotal: 'Count',
      ServerErrors: 'Count',
      StorageUnavailable: 'Count',
      RateLimited: 'Count',
      ContactsCreated: 'Count',
      DynamoDBCalls: 'Count',
      DynamoDBLatency: 'Milliseconds',
    });
    expect(emf).toMatchObject({
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
    const emf = await document(200);
    expect(emf).toMatchObject({ ContactsUpdated: 1 });
    expect(emf).not.toHaveProperty('ContactsCreated');
    expect(declared(emf._aws.CloudWatchMetrics[0])).not.toHaveProperty('ContactsCreated');
  });

  test('counts no upsert outcome for a GET', async () => {
    const emf = await document(200, 'GET');
    expect(emf).not.toHaveProperty('ContactsUpdated');
    expect(emf).not.toHaveProperty('ContactsCreated');
  });

  test.each([
    [503, { ServerErrors: 1, StorageUnavailable: 1, RateLimited: 0 }],
    [500, { ServerErrors: 1, StorageUnavailable: 0, RateLimited: 0 }],
    [429, { ServerErrors: 0, StorageUnavailable: 0, RateLimited: 1 }],
  ])('flags a %i', async (status, flags) => {
    expect(await document(status, 'GET')).toMatchObject(flags);
  });

  test('counts Requests by route and status class in a second directive of the same document', async () => {
    const emf = await document(404, 'GET');
    const byRoute = emf._aws.CloudWatchMetrics[1];
    expect(byRoute).toMatchObject({ Namespace: 'ContactsService', Dimensions: [['service', 'route', 'statusClass']] });
    expect(declared(byRoute)).toEqual({ Requests: 'Count' });
    expect(emf).toMatchObject({ route: 'GET /api/v1/contacts', statusClass: '4xx', Requests: 1 });
  });

  test('declares only metrics whose values the document carries (valid EMF)', async () => {
    const emf = await document(201, 'POST', [3]);
    for (const directive of emf._aws.CloudWatchMetrics) {
      for (const dimension of directive.Dimensions.flat()) expect(typeof emf[dimension]).toBe('string');
      for (const { Name } of directive.Metrics) expect(emf).toHaveProperty(Name);
    }
    expect(Number.isInteger(emf._aws.Timestamp)).toBe(true);
  });

  test('writes nothing when metrics are disabled', async () => {
    const lines: string[] = [];
    const metrics = new RequestMetrics({ namespace: 'N', service: 's', enabled: false }, (line) => lines.push(line));
    await middy()
      .use(requestMetrics(() => 'GET /', metrics))
      .handler(async () => ({ statusCode: 200, body: '{}' }))(proxyEvent(), context() as never);
    expect(lines).toEqual([]);
  });
});

describe('metricsOptionsFromEnv', () => {
  test('defaults to the service namespace and name, enabled', () => {
    expect(metricsOptionsFromEnv({})).toEqual({ namespace: 'ContactsService', service: 'contacts-api', enabled: true });
  });

  test('takes the namespace and service name the stack sets', () => {
    expect(metricsOptionsFromEnv({ POWERTOOLS_METRICS_NAMESPACE: 'Ns', POWERTOOLS_SERVICE_NAME: 'svc' })).toMatchObject({ namespace: 'Ns', service: 'svc' });
  });

  test.each(['true', 'TRUE', '1', 'yes', 'on', ' t '])('POWERTOOLS_METRICS_DISABLED=%j turns metrics off, as in Powertools', (value) => {
    expect(metricsOptionsFromEnv({ POWERTOOLS_METRICS_DISABLED: value }).enabled).toBe(false);
  });

  test.each(['false', '0', 'no', ''])('POWERTOOLS_METRICS_DISABLED=%j leaves metrics on', (value) => {
    expect(metricsOptionsFromEnv({ POWERTOOLS_METRICS_DISABLED: value }).enabled).toBe(true);
  });
});
