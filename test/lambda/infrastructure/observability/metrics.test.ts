import { metricsOptionsFromEnv, RequestMetrics, requestMetricsLine } from '../../../../lambda/infrastructure/observability/metrics';
import { METRIC } from '../../../../lambda/infrastructure/observability/names';

const OPTIONS = { namespace: 'ContactsService/Test', service: 'contacts-api' };
const documentOf = (line: string) => JSON.parse(line) as Record<string, any>;

describe("a request's EMF line", () => {
  test('the totals every request counts, each 0 or 1, and Requests by route and status class', () => {
    const doc = documentOf(requestMetricsLine({ route: 'GET /api/v1/contacts/{id}', status: 503 }, OPTIONS, 1_795_000_000_000));
    expect(doc).toMatchObject({
      service: 'contacts-api',
      route: 'GET /api/v1/contacts/{id}',
      statusClass: '5xx',
      RequestsTotal: 1,
      ServerErrors: 1,
      StorageUnavailable: 1,
      RateLimited: 0,
      Requests: 1,
    });
    expect(doc._aws.Timestamp).toBe(1_795_000_000_000);
    expect(doc._aws.CloudWatchMetrics.map((set: { Dimensions: string[][] }) => set.Dimensions)).toEqual([[['service']], [['service', 'route', 'statusClass']]]);
  });

  test("the API's own counts and the DynamoDB calls, each latency a value", () => {
    const doc = documentOf(
      requestMetricsLine(
        { route: 'POST /api/v1/contacts', status: 201, counts: { [METRIC.contactsCreated]: 1 }, dynamo: { calls: 2, latenciesMs: [4, 6] } },
        OPTIONS,
        0,
      ),
    );
    expect(doc).toMatchObject({ ContactsCreated: 1, DynamoDBCalls: 2, DynamoDBLatency: [4, 6] });
    const names = doc._aws.CloudWatchMetrics[0].Metrics.map((metric: { Name: string }) => metric.Name);
    expect(names).toEqual(expect.arrayContaining(['ContactsCreated', 'DynamoDBCalls', 'DynamoDBLatency']));
  });

  test('on Lambda, the totals and 5xx once more under the function version that answered', () => {
    const doc = documentOf(requestMetricsLine({ route: 'r', status: 200 }, { ...OPTIONS, functionVersion: '7' }, 0));
    expect(doc.functionVersion).toBe('7');
    expect(doc._aws.CloudWatchMetrics[2]).toEqual({
      Namespace: OPTIONS.namespace,
      Dimensions: [['service', 'functionVersion']],
      Metrics: [
        { Name: 'RequestsTotal', Unit: 'Count' },
        { Name: 'ServerErrors', Unit: 'Count' },
      ],
    });
  });
});

describe('the metrics settings, read as Powertools reads them', () => {
  test('namespace, service and version from the environment; disabled by any of its true words', () => {
    expect(metricsOptionsFromEnv({ POWERTOOLS_METRICS_NAMESPACE: 'X', POWERTOOLS_SERVICE_NAME: 'svc', AWS_LAMBDA_FUNCTION_VERSION: '3' })).toEqual({
      namespace: 'X',
      service: 'svc',
      enabled: true,
      functionVersion: '3',
    });
    for (const yes of ['true', 'TRUE', '1', 'yes', 'on']) expect(metricsOptionsFromEnv({ POWERTOOLS_METRICS_DISABLED: yes }).enabled).toBe(false);
    expect(metricsOptionsFromEnv({ POWERTOOLS_METRICS_DISABLED: 'false' }).enabled).toBe(true);
  });

  test('disabled metrics write nothing; enabled, one line ending in a newline', () => {
    expect(new RequestMetrics({ ...OPTIONS, enabled: false }).line({ route: 'r', status: 200 })).toBe('');
    expect(new RequestMetrics({ ...OPTIONS, enabled: true }).line({ route: 'r', status: 200 })).toMatch(/^\{"_aws".*\}\n$/);
  });
});
