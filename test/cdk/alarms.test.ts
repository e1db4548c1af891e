import { Match, type Template } from 'aws-cdk-lib/assertions';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { INGEST_SERVICE_NAME, METRIC, METRICS_NAMESPACE, SERVICE_NAME, stackMetricsNamespace } from '../../lambda/infrastructure/observability/names';
import { OUTPUTS } from '../../lib/outputs';
import { resourcesOf, synthStack } from './synth';

const STACK = 'TestAlarms';
/** Where this stack's functions write their metrics, and its alarms read them: its own namespace. */
const NAMESPACE = stackMetricsNamespace(STACK);

interface AlarmProps {
  AlarmName: string;
  AlarmDescription: string;
  Threshold: number;
  ComparisonOperator: string;
  EvaluationPeriods: number;
  DatapointsToAlarm: number;
  TreatMissingData: string;
  AlarmActions: unknown[];
  OKActions: unknown[];
  /** CDK writes an alarm on one labelled metric, or on metric math, as a list of metrics. */
  Metrics: {
    Id: string;
    Expression?: string;
    MetricStat?: { Metric: { Namespace: string; MetricName: string; Dimensions: { Name: string; Value: unknown }[] }; Period: number; Stat: string };
  }[];
}

let template: Template;
let alarms: Record<string, AlarmProps>;

beforeAll(() => {
  ({ template } = synthStack({ alarmEmail: 'oncall@example.com' }, STACK));
  // The service's alarms; each function's deployment alarms (<stack>-deploy-…-v<version>, a name made with the version) are test/cdk/deployments.test.ts's.
  alarms = Object.fromEntries(
    Object.values(resourcesOf(template, 'AWS::CloudWatch::Alarm'))
      .map((a) => a.Properties as unknown as AlarmProps)
      .filter((props) => typeof props.AlarmName === 'string' && !props.AlarmName.startsWith(`${STACK}-deploy-`))
      .map((props) => [props.AlarmName.replace(`${STACK}-`, ''), props]),
  );
}, 60_000);

/** The alarm's metrics of one name, with their dimensions as a map. */
const metricsNamed = (alarm: AlarmProps, metricName: string) =>
  alarm.Metrics.filter((m) => m.MetricStat?.Metric.MetricName === metricName).map((m) => ({
    namespace: m.MetricStat!.Metric.Namespace,
    stat: m.MetricStat!.Stat,
    period: m.MetricStat!.Period,
    dimensions: Object.fromEntries(m.MetricStat!.Metric.Dimensions.map((d) => [d.Name, d.Value])),
  }));

test.each([
  // name, threshold, datapoints to alarm, of evaluation periods
  ['api-5xx-rate', 1, 2, 3],
  ['api-503-rate', 1, 2, 3],
  ['api-latency-p99', 2000, 3, 3],
  ['api-function-errors', 3, 1, 1],
  ['api-function-throttles', 1, 1, 1],
  ['ingest-function-errors', 3, 1, 1],
  ['ingest-function-throttles', 1, 1, 1],
  ['secret-key-exposed', 1, 1, 1],
  ['control-room-function-errors', 3, 1, 1],
  ['control-room-function-throttles', 1, 1, 1],
  ['contacts-table-throttles', 10, 1, 1],
  ['contacts-table-system-errors', 5, 1, 1],
  ['keys-table-throttles', 10, 1, 1],
  ['keys-table-system-errors', 5, 1, 1],
  ['reports-table-throttles', 10, 1, 1],
  ['reports-table-system-errors', 5, 1, 1],
  ['alert-stream-failures', 1, 1, 1],
  ['alert-delivery-dead-letters', 1, 1, 1],
  ['alert-notifier-errors', 3, 1, 1],
  ['alert-deliverer-errors', 3, 1, 1],
  ['release-hook-failed', 1, 1, 1],
  ['api-gateway-429', 10, 1, 1],
  ['ingest-gateway-429', 100, 2, 3],
  ['sourcemaps-gateway-429', 10, 1, 1],
  ['sourcemaps-function-errors', 3, 1, 1],
  ['sourcemaps-function-throttles', 1, 1, 1],
  ['alerts-table-throttles', 10, 1, 1],
  ['alerts-table-system-errors', 5, 1, 1],
])('alarm %s: >= %d in %d of %d five-minute periods, missing data is fine', (name, threshold, datapoints, periods) => {
  const alarm = alarms[name];
  expect(alarm).toBeDefined();
  expect(alarm).toMatchObject({
    Threshold: threshold,
    ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    DatapointsToAlarm: datapoints,
    EvaluationPeriods: periods,
    TreatMissingData: 'notBreaching',
  });
  const periodsSeen = alarm.Metrics.flatMap((m) => (m.MetricStat ? [m.MetricStat.Period] : []));
  expect(new Set(periodsSeen)).toEqual(new Set([300]));
});

test('there are no other alarms', () => {
  expect(Object.keys(alarms)).toHaveLength(31);
});

/** The alarm topic's logical id (the stack's other topic carries issue alerts: lib/alerts.ts). */
const alarmTopicId = () => Object.keys(resourcesOf(template, 'AWS::SNS::Topic', { DisplayName: `${STACK} alarms` }))[0];

test('every alarm notifies the alarm topic when it fires and when it clears', () => {
  const topicId = alarmTopicId();
  for (const alarm of Object.values(alarms)) {
    expect(alarm.AlarmActions).toEqual([{ Ref: topicId }]);
    expect(alarm.OKActions).toEqual([{ Ref: topicId }]);
  }
});

test('the 5xx rate is API Gateway 5XXError over Count of this stage, counted from 5 errors on', () => {
  const alarm = alarms['api-5xx-rate']!;
  const [errors] = metricsNamed(alarm, '5XXError');
  const [requests] = metricsNamed(alarm, 'Count');
  expect(errors).toMatchObject({ namespace: 'AWS/ApiGateway', stat: 'Sum', dimensions: { ApiName: STACK } });
  expect(requests).toMatchObject({ namespace: 'AWS/ApiGateway', stat: 'Sum', dimensions: { ApiName: STACK } });
  expect(errors!.dimensions.Stage).toEqual(requests!.dimensions.Stage);
  expect(alarm.Metrics.find((m) => m.Expression)!.Expression).toBe('IF(FILL(failures, 0) >= 5, 100 * FILL(failures, 0) / requests, 0)');
});

test("the 503 rate is the Lambda's StorageUnavailable over RequestsTotal, in the namespace and service it writes", () => {
  const alarm = alarms['api-503-rate']!;
  for (const name of [METRIC.storageUnavailable, METRIC.requestsTotal]) {
    expect(metricsNamed(alarm, name)).toEqual([{ namespace: NAMESPACE, stat: 'Sum', period: 300, dimensions: { service: SERVICE_NAME } }]);
  }
  expect(alarm.Metrics.find((m) => m.Expression)!.Expression).toMatch(/^IF\(FILL\(failures, 0\) >= 5, 100 \* FILL\(failures, 0\) \/ requests, 0\)$/);
});

test("secret-key-exposed watches the ingest function's ExposedSecretKeys, in the namespace and service it writes", () => {
  expect(metricsNamed(alarms['secret-key-exposed']!, METRIC.exposedSecretKeys)).toEqual([
    { namespace: NAMESPACE, stat: 'Sum', period: 300, dimensions: { service: INGEST_SERVICE_NAME } },
  ]);
  template.hasResourceProperties('AWS::Lambda::Function', {
    Description: Match.stringLikeRegexp('^Contacts ingest API'),
    Environment: { Variables: Match.objectLike({ POWERTOOLS_SERVICE_NAME: INGEST_SERVICE_NAME, POWERTOOLS_METRICS_NAMESPACE: NAMESPACE }) },
  });
});

test('the API function writes its metrics in the namespace and service the alarms read', () => {
  template.hasResourceProperties('AWS::Lambda::Function', {
    Description: Match.stringLikeRegexp('^Contacts API'),
    Environment: { Variables: Match.objectLike({ POWERTOOLS_SERVICE_NAME: SERVICE_NAME, POWERTOOLS_METRICS_NAMESPACE: NAMESPACE }) },
  });
});

describe('per-stack metric series', () => {
  /** Every namespace of the stack's own metrics (not AWS/…) that an alarm or the dashboard reads, and every one a function writes in. */
  function namespacesOf(t: Template) {
    const read = Object.values(resourcesOf(t, 'AWS::CloudWatch::Alarm')).flatMap((a) =>
      ((a.Properties as unknown as AlarmProps).Metrics ?? []).flatMap((m) => (m.MetricStat ? [m.MetricStat.Metric.Namespace] : [])),
    );
    const dashboard = JSON.stringify(Object.values(resourcesOf(t, 'AWS::CloudWatch::Dashboard'))[0]!.Properties.DashboardBody);
    const shown = [...dashboard.matchAll(/ContactsService[^\\"',]*/g)].map((m) => m[0]);
    const written = Object.values(resourcesOf(t, 'AWS::Lambda::Function'))
      .map((f) => (f.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables?.POWERTOOLS_METRICS_NAMESPACE)
      .filter((namespace) => namespace !== undefined);
    return {
      read: [...new Set(read.filter((ns) => !ns.startsWith('AWS/')))],
      shown: [...new Set(shown)],
      written: [...new Set(written)],
      functions: written.length,
    };
  }

  test("every function of the service writes its metrics in the stack's own namespace, and the alarms and the dashboard read that one alone", () => {
    expect(NAMESPACE).toBe(`${METRICS_NAMESPACE}/${STACK}`);
    expect(namespacesOf(template)).toEqual({ read: [NAMESPACE], shown: [NAMESPACE], written: [NAMESPACE], functions: 7 });
  });

  test('two stacks in one account share no series: another stack writes and reads its own namespace', () => {
    const { template: other } = synthStack({}, 'TestAlarmsOther');
    const namespaces = namespacesOf(other);
    expect(namespaces).toEqual({
      read: [stackMetricsNamespace('TestAlarmsOther')],
      shown: [stackMetricsNamespace('TestAlarmsOther')],
      written: [stackMetricsNamespace('TestAlarmsOther')],
      functions: 7,
    });
    expect(namespaces.read).not.toContain(NAMESPACE);
  }, 60_000);
});

test("latency is the contacts API function's own duration p99: the stage's latency would count source-map uploads, seconds long by design", () => {
  const [fnId] = Object.keys(resourcesOf(template, 'AWS::Lambda::Function', { Description: Match.stringLikeRegexp('^Contacts API:') }));
  expect(metricsNamed(alarms['api-latency-p99']!, 'Duration')).toEqual([
    { namespace: 'AWS/Lambda', stat: 'p99', period: 300, dimensions: { FunctionName: { Ref: fnId } } },
  ]);
});

test.each([
  ['api-function-errors', 'Errors', 'Contacts API'],
  ['api-function-throttles', 'Throttles', 'Contacts API'],
  ['ingest-function-errors', 'Errors', 'Contacts ingest API'],
  ['ingest-function-throttles', 'Throttles', 'Contacts ingest API'],
  ['control-room-function-errors', 'Errors', 'Contacts control room'],
  ['control-room-function-throttles', 'Throttles', 'Contacts control room'],
  ['sourcemaps-function-errors', 'Errors', 'Contacts source maps API'],
  ['sourcemaps-function-throttles', 'Throttles', 'Contacts source maps API'],
])('%s watches Lambda %s of the %s function', (name, metricName, description) => {
  const [fnId] = Object.keys(resourcesOf(template, 'AWS::Lambda::Function', { Description: Match.stringLikeRegexp(`^${description}`) }));
  expect(metricsNamed(alarms[name]!, metricName)).toEqual([{ namespace: 'AWS/Lambda', stat: 'Sum', period: 300, dimensions: { FunctionName: { Ref: fnId } } }]);
});

test.each([
  ['contacts-table-throttles', 'ThrottledRequests', 'TablesContacts', ['GetItem', 'UpdateItem', 'Query', 'TransactWriteItems', 'BatchGetItem']],
  ['contacts-table-system-errors', 'SystemErrors', 'TablesContacts', ['GetItem', 'UpdateItem', 'Query', 'TransactWriteItems', 'BatchGetItem']],
  ['keys-table-throttles', 'ThrottledRequests', 'TablesKeys', ['UpdateItem', 'PutItem', 'Query', 'BatchGetItem']],
  ['keys-table-system-errors', 'SystemErrors', 'TablesKeys', ['UpdateItem', 'PutItem', 'Query', 'BatchGetItem']],
  ['reports-table-throttles', 'ThrottledRequests', 'TablesReports', ['PutItem', 'UpdateItem', 'Query', 'BatchGetItem']],
  ['reports-table-system-errors', 'SystemErrors', 'TablesReports', ['PutItem', 'UpdateItem', 'Query', 'BatchGetItem']],
])('%s sums %s of the operations made on %s, each missing value counted as 0', (name, metricName, table, operations) => {
  const alarm = alarms[name]!;
  const metrics = metricsNamed(alarm, metricName);
  expect(metrics.map((m) => m.dimensions.Operation)).toEqual(operations);
  for (const metric of metrics) {
    expect(metric).toMatchObject({ namespace: 'AWS/DynamoDB', stat: 'Sum' });
    expect(JSON.stringify(metric.dimensions.TableName)).toMatch(new RegExp(`"${table}[0-9A-F]{8}"`));
  }
  const ids = alarm.Metrics.filter((m) => m.MetricStat).map((m) => m.Id);
  expect(alarm.Metrics.find((m) => m.Expression)!.Expression).toBe(ids.map((id) => `FILL(${id}, 0)`).join(' + '));
});

describe('the alarm topic', () => {
  test('mails the alarmEmail address', () => {
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'oncall@example.com' });
  });

  test('has no subscriber without alarmEmail', () => {
    const { template: withoutEmail } = synthStack({}, 'TestNoEmail');
    withoutEmail.resourceCountIs('AWS::SNS::Subscription', 0);
    // The alarm topic, and the issue-alert topic (lib/alerts.ts).
    withoutEmail.resourceCountIs('AWS::SNS::Topic', 2);
  }, 60_000);

  test("lets only this account's alarms named after the stack publish, and only over TLS", () => {
    const policy = Object.values(resourcesOf(template, 'AWS::SNS::TopicPolicy')).find(
      (candidate) => JSON.stringify(candidate.Properties.Topics) === JSON.stringify([{ Ref: alarmTopicId() }]),
    );
    const statements = (policy!.Properties.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement;
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Action: 'sns:Publish', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    const allow = statements.find((s) => s.Effect === 'Allow')!;
    expect(allow).toMatchObject({ Principal: { Service: 'cloudwatch.amazonaws.com' }, Action: 'sns:Publish' });
    expect(allow.Condition).toMatchObject({ StringEquals: { 'aws:SourceAccount': '123456789012' } });
    expect(JSON.stringify(allow.Condition)).toContain(`:cloudwatch:eu-west-1:123456789012:alarm:${STACK}-*`);
  });

  test('is an output, for subscribing more on-call channels', () => {
    expect(template.toJSON().Outputs[OUTPUTS.alarmTopic].Value).toEqual({ Ref: alarmTopicId() });
  });
});

test("every alarm's description links its own section of the runbook", () => {
  const runbook = readFileSync(join(__dirname, '..', '..', 'docs', 'runbook.md'), 'utf8');
  const headings = new Set([...runbook.matchAll(/^#{2,4} +`?([a-z0-9-]+)`?\s*$/gm)].map((m) => m[1]));
  for (const [name, alarm] of Object.entries(alarms)) {
    expect(alarm.AlarmDescription).toMatch(new RegExp(`Runbook: docs/runbook\\.md#${name}$`));
    expect(headings).toContain(name);
  }
});

describe('the dashboard', () => {
  let widgets: { type: string; properties: { title?: string; alarms?: unknown[]; annotations?: { alarms?: unknown[] } } }[];
  beforeAll(() => {
    const [dashboard] = Object.values(resourcesOf(template, 'AWS::CloudWatch::Dashboard'));
    // The body is a Fn::Join of JSON text and tokens: put each token back as a JSON string to parse it.
    const parts = (dashboard!.Properties.DashboardBody as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
    widgets = JSON.parse(parts.map((p) => (typeof p === 'string' ? p : JSON.stringify(JSON.stringify(p)).slice(1, -1))).join('')).widgets;
  });

  const alarmRef = (name: string) => {
    const [id] = Object.keys(resourcesOf(template, 'AWS::CloudWatch::Alarm', { AlarmName: `${STACK}-${name}` }));
    return JSON.stringify({ 'Fn::GetAtt': [id, 'Arn'] });
  };

  test('shows the state of every alarm in one widget', () => {
    const status = widgets.filter((w) => w.type === 'alarm');
    expect(status).toHaveLength(1);
    expect(new Set(status[0]!.properties.alarms)).toEqual(new Set(Object.keys(alarms).map(alarmRef)));
  });

  test("graphs every alarm's metric against its threshold, titled by the alarm", () => {
    for (const name of Object.keys(alarms)) {
      const graph = widgets.find((w) => w.properties.title === name);
      expect(graph?.properties.annotations?.alarms).toEqual([alarmRef(name)]);
    }
  });

  test('has a row for the ingest API: what arrived, what was refused, its function', () => {
    const titles = widgets.map((w) => w.properties.title);
    expect(titles).toEqual(
      expect.arrayContaining([
        'Ingest: events and feature requests',
        'Ingest: refused origins, 429s and exposed secret keys',
        'Ingest function: duration p99 (ms), errors and concurrency',
      ]),
    );
  });

  test('is named after the stack, and an output', () => {
    template.hasResourceProperties('AWS::CloudWatch::Dashboard', { DashboardName: STACK });
    expect(template.toJSON().Outputs[OUTPUTS.dashboard].Value).toEqual({ Ref: Object.keys(resourcesOf(template, 'AWS::CloudWatch::Dashboard'))[0] });
  });
});
