import type { Template } from 'aws-cdk-lib/assertions';
import { OUTPUTS } from '../../lib/outputs';
import { resourcesOf, synthStack } from './synth';

/**
 * The alert side of the stack (lib/alerts.ts, docs/alerts.md#on-aws): the
 * notifier on the reports table's stream, issue items only, with a failure
 * destination and an alarm on it; the delivery queue, its dead letters and
 * the deliverer; the platform topic with the alertEmails subscribers; each
 * role allowed exactly its calls.
 */
let template: Template;
beforeAll(() => {
  ({ template } = synthStack(
    { alertEmails: ['platform@example.com', 'oncall@example.com'] as never, alertLinkBase: 'https://control.example.com' },
    'TestAlerts',
  ));
}, 60_000);

type Resource = { Properties: Record<string, any>; [key: string]: unknown };
const one = (type: string, props: object = {}): [string, Resource] => {
  const found = Object.entries(resourcesOf(template, type, props));
  expect(found).toHaveLength(1);
  return found[0] as [string, Resource];
};
const functionNamed = (prefix: string) =>
  Object.entries(resourcesOf(template, 'AWS::Lambda::Function')).find(([, fn]) => String(fn.Properties.Description).startsWith(prefix)) as [string, Resource];

/** The event source mapping of a function's `live` alias (lib/gradual-deployment.ts): a release reaches its source through its canary. */
function mappingOf(deployment: string): Resource {
  const found = Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping')).filter((m) =>
    new RegExp(`"Ref":"${deployment}Live[0-9A-F]+"`).test(JSON.stringify(m.Properties.FunctionName)),
  );
  expect(found).toHaveLength(1);
  return found[0] as Resource;
}

/** Every statement of a function's role policies. */
function statementsOf(functionId: string): { Action: string | string[]; Resource: unknown }[] {
  const fn = resourcesOf(template, 'AWS::Lambda::Function')[functionId] as Resource;
  const role = fn.Properties.Role['Fn::GetAtt'][0];
  return Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
    .filter((policy) => (policy.Properties.Roles as { Ref: string }[]).some((ref) => ref.Ref === role))
    .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: { Action: string | string[]; Resource: unknown }[] }).Statement);
}
const actionsOf = (functionId: string) => [...new Set(statementsOf(functionId).flatMap((statement) => [statement.Action].flat()))].sort();

test('the reports table streams new and old images', () => {
  const [, table] = Object.entries(resourcesOf(template, 'AWS::DynamoDB::Table')).find(([id]) => id.startsWith('TablesReports')) as [string, Resource];
  expect(table.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' });
});

test('the notifier reads the stream of issue items only, retries from the failed record, and gives up into an SQS failure destination within minutes', () => {
  const mapping = mappingOf('AlertsNotifierDeployment');
  expect(mapping.Properties).toMatchObject({
    StartingPosition: 'LATEST',
    BisectBatchOnFunctionError: true,
    FunctionResponseTypes: ['ReportBatchItemFailures'],
    // Five tries of the failing record after the splits that isolate it, and no record older than an hour (lib/stream-failures.ts).
    MaximumRetryAttempts: 5,
    MaximumRecordAgeInSeconds: 3600,
    DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [expect.stringMatching(/^AlertsStreamFailures/), 'Arn'] } } },
  });
  expect(JSON.parse(mapping.Properties.FilterCriteria.Filters[0].Pattern)).toEqual({
    eventName: ['INSERT', 'MODIFY'],
    // Issue items (issue alerts) and release hours (release alerts) only.
    dynamodb: { Keys: { pk: { S: [{ prefix: 'issue#' }, { prefix: 'relh#' }] } } },
  });
});

test('an alarm fires on the first record in the failure destination, and on the first dead delivery message, notifying the alarm topic', () => {
  for (const [slug, queue] of [
    ['alert-stream-failures', 'AlertsStreamFailures'],
    ['alert-delivery-dead-letters', 'AlertsDeliveryDeadLetters'],
  ]) {
    const [, alarm] = one('AWS::CloudWatch::Alarm', { AlarmName: `TestAlerts-${slug}` });
    expect(alarm.Properties.Threshold).toBe(1);
    // A labelled metric is written as a list of one metric.
    const [metric] = alarm.Properties.Metrics as { MetricStat: { Metric: { Namespace: string; MetricName: string; Dimensions: unknown }; Stat: string } }[];
    expect(metric!.MetricStat).toMatchObject({ Stat: 'Maximum', Metric: { Namespace: 'AWS/SQS', MetricName: 'ApproximateNumberOfMessagesVisible' } });
    expect(JSON.stringify(metric!.MetricStat.Metric.Dimensions)).toContain(queue);
    expect(alarm.Properties.AlarmActions).toHaveLength(1);
  }
});

test('the delivery queue feeds the deliverer a few messages at a time, gives up after 5 receives into its dead letters, and refuses plain HTTP', () => {
  const mapping = mappingOf('AlertsDelivererDeployment');
  expect(mapping.Properties).toMatchObject({ BatchSize: 5, FunctionResponseTypes: ['ReportBatchItemFailures'], ScalingConfig: { MaximumConcurrency: 5 } });
  const [, queue] = Object.entries(resourcesOf(template, 'AWS::SQS::Queue')).find(([id]) => id.startsWith('AlertsDeliveryQueue')) as [string, Resource];
  expect(queue.Properties).toMatchObject({ VisibilityTimeout: 180, SqsManagedSseEnabled: true, RedrivePolicy: { maxReceiveCount: 5 } });
  const policies = Object.entries(resourcesOf(template, 'AWS::SQS::QueuePolicy')).filter(([id]) => id.startsWith('Alerts'));
  expect(policies).toHaveLength(3);
  for (const [, policy] of policies) expect(JSON.stringify(policy.Properties.PolicyDocument)).toContain('"aws:SecureTransport":"false"');
});

test('least privilege: the notifier writes alerts and deliveries, queues, publishes, and reads who an issue affects; the deliverer reads and updates; neither writes another table', () => {
  const [notifierId] = functionNamed('Contacts alert notifier');
  const [delivererId] = functionNamed('Contacts alert deliverer');
  const dynamoOf = (id: string) => actionsOf(id).filter((action) => action.startsWith('dynamodb:'));
  expect(dynamoOf(notifierId)).toEqual([
    'dynamodb:BatchGetItem',
    'dynamodb:DescribeStream',
    'dynamodb:GetItem',
    'dynamodb:GetRecords',
    'dynamodb:GetShardIterator',
    'dynamodb:ListStreams',
    'dynamodb:PutItem',
    'dynamodb:Query',
    'dynamodb:UpdateItem',
  ]);
  expect(dynamoOf(delivererId)).toEqual(['dynamodb:GetItem', 'dynamodb:UpdateItem']);
  expect(actionsOf(notifierId)).toEqual(expect.arrayContaining(['sns:Publish', 'sqs:SendMessage']));
  expect(actionsOf(delivererId)).toEqual(expect.arrayContaining(['sqs:SendMessage', 'sqs:ReceiveMessage', 'sqs:DeleteMessage']));
  expect(actionsOf(delivererId).filter((action) => action.startsWith('sns:'))).toEqual([]);
  for (const id of [notifierId, delivererId]) {
    const tables = statementsOf(id).filter((statement) =>
      [statement.Action].flat().some((action) => ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'].includes(action)),
    );
    for (const statement of tables) expect(JSON.stringify(statement.Resource)).toMatch(/TablesAlerts[0-9A-F]{8}/);
  }
});

test('the platform topic mails the alertEmails addresses and is an output; the functions get the link base', () => {
  const topicId = Object.keys(resourcesOf(template, 'AWS::SNS::Topic', { DisplayName: 'Contacts service: issue alerts' }))[0];
  const subscribed = Object.values(resourcesOf(template, 'AWS::SNS::Subscription', { TopicArn: { Ref: topicId } }))
    .map((sub) => sub.Properties.Endpoint)
    .sort();
  expect(subscribed).toEqual(['oncall@example.com', 'platform@example.com']);
  expect(template.toJSON().Outputs[OUTPUTS.alertTopic].Value).toEqual({ Ref: topicId });
  expect(template.toJSON().Outputs[OUTPUTS.alertsTable]).toBeDefined();
  const [, notifier] = functionNamed('Contacts alert notifier');
  expect(notifier.Properties.Environment.Variables).toMatchObject({ ALERT_LINK_BASE: 'https://control.example.com', ALERT_TOPIC_ARN: { Ref: topicId } });
  expect(notifier.Properties.Environment.Variables.ALERTS_ALLOW_LOOPBACK).toBeUndefined();
  const [, deliverer] = functionNamed('Contacts alert deliverer');
  expect(deliverer.Properties.Environment.Variables.ALERTS_ALLOW_LOOPBACK).toBeUndefined();
});
