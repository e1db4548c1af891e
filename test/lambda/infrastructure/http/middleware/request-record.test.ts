import middy from '@middy/core';
import { upsertCounts } from '../../../../../lambda/contacts/api/upsert-counts';
import { requestRecord } from '../../../../../lambda/infrastructure/http/middleware/request-record';
import type { CountsOf } from '../../../../../lambda/infrastructure/http/middleware/request-metrics';
import type { RequestState } from '../../../../../lambda/infrastructure/http/request-state';
import type { ApiContext, ApiEvent } from '../../../../../lambda/infrastructure/http/types';
import { JsonLogger } from '../../../../../lambda/infrastructure/observability/logger';
import { metricsOptionsFromEnv, RequestMetrics } from '../../../../../lambda/infrastructure/observability/metrics';
import { context, proxyEvent } from '../../../../support/events';

interface Directive {
  Namespace: string;
  Dimensions: string[][];
  Metrics: { Name: string; Unit: string }[];
}
interface Emf {
  _aws: { Timestamp: number; CloudWatchMetrics: Directive[] };
  [name: string]: unknown;
}

interface Served {
  /** Each write, as written, with its stream. */
  writes: { stream: 'stdout' | 'stderr'; text: string }[];
  /** Every line written, parsed. */
  lines: Record<string, unknown>[];
}

/** One request through the middleware, with a logger at `level` and metrics on or off; what it wrote. */
async function serve(
  answer: { status: number; method?: string; dynamoLatencies?: number[] },
  options: {
    level?: string;
    metrics?: boolean;
    functionVersion?: string;
    event?: Partial<ApiEvent>;
    state?: Omit<Partial<RequestState>, 'calls'>;
    countsOf?: CountsOf;
  } = {},
): Promise<Served> {
  const writes: Served['writes'] = [];
  const logger = new JsonLogger({
    service: 'contacts-api',
    level: options.level ?? 'INFO',
    out: (text) => writes.push({ stream: 'stdout', text }),
    err: (text) => writes.push({ stream: 'stderr', text }),
  });
  const metrics = new RequestMetrics({
    namespace: 'ContactsService',
    service: 'contacts-api',
    enabled: options.metrics ?? true,
    ...(options.functionVersion === undefined ? {} : { functionVersion: options.functionVersion }),
  });
  const method = answer.method ?? 'POST';
  const latencies = answer.dynamoLatencies ?? [];
  const handler = middy<ApiEvent, unknown, Error, ApiContext>()
    // The contacts API's own counts by default, as its route table gives them.
    .use(requestRecord(() => `${method} /api/v1/contacts`, { logger, metrics, countsOf: options.countsOf ?? upsertCounts }))
    .handler(async (_event, c) => {
      // What the stores record in the request's call log.
      c.state.calls.calls += latencies.length;
      c.state.calls.latenciesMs.push(...latencies);
      return { statusCode: answer.status, body: '{}' };
    });
  const ctx = context();
  Object.assign(ctx.state, options.state);
  await handler(proxyEvent({ httpMethod: method, ...options.event }), ctx);
  const lines = writes.flatMap(({ text }) => text.trim().split('\n')).map((line) => JSON.parse(line) as Record<string, unknown>);
  return { writes, lines };
}

const logLine = (served: Served) => served.lines.find((line) => line.message === 'request');
const emf = (served: Served) => served.lines.find((line) => '_aws' in line) as Emf;
const metricsOnly = (status: number, method?: string, dynamoLatencies?: number[]) => serve({ status, method, dynamoLatencies }, { level: 'SILENT' }).then(emf);

/** The metric names a directive declares, with their units. */
const declared = (directive: Directive | undefined) => Object.fromEntries((directive?.Metrics ?? []).map((m) => [m.Name, m.Unit]));

describe('requestRecord: the write', () => {
  test('writes the log line and the metrics document in one write to stdout, each a whole line', async () => {
    const { writes, lines } = await serve({ status: 201 });
    expect(writes).toHaveLength(1);
    expect(writes[0]?.stream).toBe('stdout');
    expect(writes[0]?.text).toMatch(/^\{[^\n]*\}\n\{[^\n]*\}\n$/);
    expect(lines.map((line) => ('_aws' in line ? 'metrics' : line.message))).toEqual(['request', 'metrics']);
  });

  test('writes a 5xx line to stderr and its metrics to stdout', async () => {
    const { writes } = await serve({ status: 503 }, { state: { failure: 'StorageUnavailableError(TimeoutError)' } });
    expect(writes.map(({ stream, text }) => [stream, '_aws' in JSON.parse(text) ? 'metrics' : 'log'])).toEqual([
      ['stderr', 'log'],
      ['stdout', 'metrics'],
    ]);
  });

  test('writes only the metrics at level SILENT, and nothing when metrics are off too', async () => {
    expect((await serve({ status: 503 }, { level: 'SILENT' })).lines.map((line) => '_aws' in line)).toEqual([true]);
    expect((await serve({ status: 503 }, { level: 'SILENT', metrics: false })).writes).toEqual([]);
  });

  test('writes only the log line when metrics are off', async () => {
    const { writes, lines } = await serve({ status: 200 }, { metrics: false });
    expect(writes).toHaveLength(1);
    expect(lines).toEqual([expect.objectContaining({ message: 'request', status: 200 })]);
  });
});

describe('requestRecord: the log line', () => {
  test('carries request id, route, status, latency, DynamoDB calls, factory and key id', async () => {
    const served = await serve(
      { status: 201, dynamoLatencies: [3, 4] },
      { event: { requestContext: { requestId: 'req-123' } as never }, state: { caller: { factoryId: 'fac_log', keyId: 'key_log' } } },
    );
    expect(logLine(served)).toEqual(
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
    );
  });

  test('never carries the path, query string, headers or body', async () => {
    const served = await serve(
      { status: 200 },
      {
        event: {
          path: '/api/v1/contacts/private.person@example.com',
          queryStringParameters: { email: 'secret.person@example.com' },
          headers: { authorization: 'Bearer dfsk_topsecret' },
          body: '{"email":"secret.person@example.com"}',
        },
      },
    );
    expect(JSON.stringify(served.lines)).not.toMatch(/person@|dfsk_|Bearer/);
  });

  test('is at error level for a 5xx, with the class of the error behind it', async () => {
    const served = await serve({ status: 503 }, { state: { failure: 'StorageUnavailableError(TimeoutError)' } });
    expect(logLine(served)).toEqual(expect.objectContaining({ level: 'ERROR', status: 503, errorClass: 'StorageUnavailableError(TimeoutError)' }));
  });

  test("carries what the API adds in the request state's logFields", async () => {
    const served = await serve({ status: 202 }, { state: { logFields: { origin: 'https://shop.example' } } });
    expect(logLine(served)).toEqual(expect.objectContaining({ origin: 'https://shop.example' }));
  });
});

describe('requestRecord: the metrics', () => {
  test('count the request, its outcome flags and its DynamoDB calls under the service dimension', async () => {
    const document = await metricsOnly(201, 'POST', [4, 6]);
    const [totals] = document._aws.CloudWatchMetrics;
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
    expect(document).toMatchObject({
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

  test('count an upsert answered 200 as an update', async () => {
    const document = await metricsOnly(200);
    expect(document).toMatchObject({ ContactsUpdated: 1 });
    expect(document).not.toHaveProperty('ContactsCreated');
    expect(declared(document._aws.CloudWatchMetrics[0])).not.toHaveProperty('ContactsCreated');
  });

  test('count no upsert outcome for a GET', async () => {
    const document = await metricsOnly(200, 'GET');
    expect(document).not.toHaveProperty('ContactsUpdated');
    expect(document).not.toHaveProperty('ContactsCreated');
  });

  test.each([
    [503, { ServerErrors: 1, StorageUnavailable: 1, RateLimited: 0 }],
    [500, { ServerErrors: 1, StorageUnavailable: 0, RateLimited: 0 }],
    [429, { ServerErrors: 0, StorageUnavailable: 0, RateLimited: 1 }],
  ])('flag a %i', async (status, flags) => {
    expect(await metricsOnly(status, 'GET')).toMatchObject(flags);
  });

  test('count what the API noted, by metric name, and nothing of another API', async () => {
    const noted: CountsOf = ({ state }) => state.counts;
    const document = await serve({ status: 202 }, { level: 'SILENT', countsOf: noted, state: { counts: { EventsAccepted: 3 } } }).then(emf);
    expect(document).toMatchObject({ EventsAccepted: 3 });
    expect(declared(document._aws.CloudWatchMetrics[0])).toMatchObject({ EventsAccepted: 'Count' });
    expect(document).not.toHaveProperty('ContactsCreated');
    expect(document).not.toHaveProperty('ContactsUpdated');
  });

  test('count Requests by route and status class in a second directive of the same document', async () => {
    const document = await metricsOnly(404, 'GET');
    const byRoute = document._aws.CloudWatchMetrics[1];
    expect(byRoute).toMatchObject({ Namespace: 'ContactsService', Dimensions: [['service', 'route', 'statusClass']] });
    expect(declared(byRoute)).toEqual({ Requests: 'Count' });
    expect(document).toMatchObject({ route: 'GET /api/v1/contacts', statusClass: '4xx', Requests: 1 });
  });

  test('declare only metrics whose values the document carries (valid EMF)', async () => {
    const document = await metricsOnly(201, 'POST', [3]);
    for (const directive of document._aws.CloudWatchMetrics) {
      for (const dimension of directive.Dimensions.flat()) expect(typeof document[dimension]).toBe('string');
      for (const { Name } of directive.Metrics) expect(document).toHaveProperty(Name);
    }
    expect(Number.isInteger(document._aws.Timestamp)).toBe(true);
  });
});

describe('requestRecord: the metrics by function version (what a deployment judges)', () => {
  test('on Lambda, count the request and its 5xx under service and functionVersion in a third directive', async () => {
    const document = (await serve({ status: 500 }, { level: 'SILENT', functionVersion: '7' }).then(emf)) as Emf;
    const byVersion = document._aws.CloudWatchMetrics[2];
    expect(byVersion).toMatchObject({ Namespace: 'ContactsService', Dimensions: [['service', 'functionVersion']] });
    expect(declared(byVersion)).toEqual({ RequestsTotal: 'Count', ServerErrors: 'Count' });
    expect(document).toMatchObject({ service: 'contacts-api', functionVersion: '7', RequestsTotal: 1, ServerErrors: 1 });
  });

  test('without a function version (npm start, the tests) the document has no such directive or value', async () => {
    const document = await metricsOnly(500, 'GET');
    expect(document._aws.CloudWatchMetrics).toHaveLength(2);
    expect(document).not.toHaveProperty('functionVersion');
  });
});

describe('metricsOptionsFromEnv', () => {
  test('reads the function version Lambda sets (AWS_LAMBDA_FUNCTION_VERSION), and none when it is unset', () => {
    expect(metricsOptionsFromEnv({ AWS_LAMBDA_FUNCTION_VERSION: '12' }).functionVersion).toBe('12');
    expect(metricsOptionsFromEnv({})).not.toHaveProperty('functionVersion');
  });

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
