import { Match, type Template } from 'aws-cdk-lib/assertions';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  hookTimeoutSeconds,
  postTrafficHookTimeoutSeconds,
  probeBudgetMs,
  ACCESS_DENIED_WINDOW_MS,
  REPORT_WINDOW_MS,
} from '../../lambda/infrastructure/deploy/hook-timing';
import { CONSUMER_DATAPOINTS, CONSUMER_FAILURE_PERCENT, CONSUMER_PERIODS } from '../../lib/gradual-deployment';
import {
  DELIVERER_SERVICE_NAME,
  INGEST_SERVICE_NAME,
  NOTIFIER_SERVICE_NAME,
  SERVICE_NAME,
  SOURCEMAPS_SERVICE_NAME,
  stackMetricsNamespace,
} from '../../lambda/infrastructure/observability/names';
import { OUTPUTS } from '../../lib/outputs';
import { commitOfDescription } from '../../lib/release-commit';
import { contactsProbes, controlRoomProbes, delivererProbes, ingestProbes, notifierProbes, sourceMapsProbes, tallyProbes } from '../../lib/pre-traffic-probes';
import { resourcesOf, synthStack } from './synth';

/**
 * Gradual deployments, read from the template (docs/deploying.md#how-a-release-reaches-traffic):
 * each function behind a `live` alias that CodeDeploy shifts, its alarms
 * judging the new version alone, its pre-traffic hook and what the hook may
 * do, and every caller pointed at the alias.
 */
const STACK = 'TestDeploys';
const COMMIT = '0123456789abcdef0123456789abcdef01234567';
type Resource = { Properties: Record<string, any>; UpdatePolicy?: any; DependsOn?: unknown };

let template: Template;
beforeAll(() => {
  ({ template } = synthStack({ controlRoomRoleArn: 'arn:aws:iam::123456789012:role/ControlRoom', commit: COMMIT }, STACK));
}, 60_000);

const all = (t: Template, type: string, props: object = {}) => resourcesOf(t, type, props) as Record<string, Resource>;
const only = (t: Template, type: string, props: object): [string, Resource] => {
  const found = Object.entries(all(t, type, props));
  expect(found).toHaveLength(1);
  return found[0]!;
};

/** A function and what deploys it, found from its description. */
function deploymentOf(t: Template, description: string) {
  const [fnId] = only(t, 'AWS::Lambda::Function', { Description: Match.stringLikeRegexp(`^${description}`) });
  const [versionId] = only(t, 'AWS::Lambda::Version', { FunctionName: { Ref: fnId } });
  const [aliasId, alias] = only(t, 'AWS::Lambda::Alias', { FunctionName: { Ref: fnId } });
  const [hookId, hook] = only(t, 'AWS::Lambda::Function', { Description: Match.stringLikeRegexp(`^Pre-traffic check of the ${description}`) });
  const bakes = Object.entries(all(t, 'AWS::Lambda::Function', { Description: Match.stringLikeRegexp(`^Bake of the ${description}`) }));
  const [bakeId, bake] = bakes[0] ?? [undefined, undefined];
  const groupId = alias.UpdatePolicy.CodeDeployLambdaAliasUpdate.DeploymentGroupName.Ref as string;
  const group = all(t, 'AWS::CodeDeploy::DeploymentGroup')[groupId]!;
  const fn = all(t, 'AWS::Lambda::Function')[fnId]!;
  return { fnId, fn, versionId, aliasId, alias, hookId, hook, bakeId, bake, groupId, group };
}

/**
 * The alarms a deployment group watches, by name between `<stack>-deploy-`
 * and `-v<version>` (each name ends with the version it judges: test below),
 * with the version the name ends with.
 */
function groupAlarms(t: Template, group: Resource): Record<string, Record<string, any>> {
  const alarms = all(t, 'AWS::CloudWatch::Alarm');
  return Object.fromEntries(
    (group.Properties.AlarmConfiguration.Alarms as { Name: { Ref: string } }[]).map(({ Name }) => {
      const props = alarms[Name.Ref]!.Properties;
      const [prefix, version] = props.AlarmName['Fn::Join'][1] as [string, unknown];
      return [prefix.replace(`${STACK}-deploy-`, '').replace(/-v$/, ''), { ...props, namedVersion: version }];
    }),
  );
}

/** The metric of a one-metric alarm, its dimensions as a map. */
function metricOf(alarm: Record<string, any>) {
  const [{ MetricStat }] = alarm.Metrics as {
    MetricStat: { Metric: { Namespace: string; MetricName: string; Dimensions: { Name: string; Value: unknown }[] }; Period: number; Stat: string };
  }[];
  return {
    namespace: MetricStat.Metric.Namespace,
    name: MetricStat.Metric.MetricName,
    stat: MetricStat.Stat,
    period: MetricStat.Period,
    dimensions: Object.fromEntries(MetricStat.Metric.Dimensions.map((d) => [d.Name, d.Value])),
  };
}

/** The hooks' failure destination (lib/hook-failures.ts): its function's logical id. */
const reporterOf = (t: Template): string => only(t, 'AWS::Lambda::Function', { Description: Match.stringLikeRegexp('^Deployment hook failures') })[0];

/** Every statement of the policies attached to a role, by the role's logical id. */
function statementsOf(t: Template, roleId: string): Record<string, unknown>[] {
  return Object.values(all(t, 'AWS::IAM::Policy'))
    .filter((p) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Record<string, unknown>[]);
}

/**
 * Each function: `http`, the service of an HTTP function's request metrics (its 5xx-rate alarm);
 * `consumer`, the service of a stream or queue consumer's batch counts (its failed-items alarm).
 */
const FUNCTIONS = [
  { description: 'Contacts API', name: 'api', http: SERVICE_NAME, consumer: undefined, sustained: false, p99: 2000, probes: contactsProbes() },
  { description: 'Contacts ingest API', name: 'ingest', http: INGEST_SERVICE_NAME, consumer: undefined, sustained: false, p99: 2000, probes: ingestProbes() },
  {
    description: 'Contacts source maps API',
    name: 'sourcemaps',
    http: SOURCEMAPS_SERVICE_NAME,
    consumer: undefined,
    sustained: false,
    p99: 20_000,
    probes: sourceMapsProbes(),
  },
  {
    description: 'Contacts control room',
    name: 'control-room',
    http: undefined,
    consumer: undefined,
    sustained: false,
    p99: 280_000,
    probes: controlRoomProbes('ROLE'),
  },
  { description: 'Contacts tally', name: 'tally', http: undefined, consumer: undefined, sustained: true, p99: 10_000, probes: tallyProbes() },
  {
    description: 'Contacts alert notifier',
    name: 'alert-notifier',
    http: undefined,
    consumer: NOTIFIER_SERVICE_NAME,
    sustained: true,
    p99: 10_000,
    probes: notifierProbes(),
  },
  {
    description: 'Contacts alert deliverer',
    name: 'alert-deliverer',
    http: undefined,
    consumer: DELIVERER_SERVICE_NAME,
    sustained: true,
    p99: 15_000,
    probes: delivererProbes(),
  },
] as const;

test('there is one CodeDeploy application, named in an output, and one deployment group per function', () => {
  const [appId] = only(template, 'AWS::CodeDeploy::Application', { ComputePlatform: 'Lambda' });
  expect(template.toJSON().Outputs[OUTPUTS.deployments].Value).toEqual({ Ref: appId });
  const groups = Object.values(all(template, 'AWS::CodeDeploy::DeploymentGroup'));
  expect(groups.map((g) => g.Properties.ApplicationName)).toEqual(FUNCTIONS.map(() => ({ Ref: appId })));
});

test('the releases need no custom resource: CodeDeploy runs the hooks, and the stack has none at all', () => {
  const types = new Set(Object.values(template.toJSON().Resources as Record<string, { Type: string }>).map((r) => r.Type));
  expect([...types].filter((type) => type.startsWith('Custom::') || type === 'AWS::CloudFormation::CustomResource')).toEqual([]);
});

describe.each(FUNCTIONS)('the $description function', ({ description, name, http, consumer, sustained, p99, probes }) => {
  let d: ReturnType<typeof deploymentOf>;
  let alarms: Record<string, Record<string, any>>;
  beforeAll(() => {
    d = deploymentOf(template, description);
    alarms = groupAlarms(template, d.group);
  });

  test('is published as a version behind a "live" alias that CodeDeploy moves through its deployment group, after its pre-traffic hook and before its bake', () => {
    expect(d.alias.Properties).toMatchObject({ Name: 'live', FunctionVersion: { 'Fn::GetAtt': [d.versionId, 'Version'] } });
    expect(d.alias.UpdatePolicy.CodeDeployLambdaAliasUpdate).toEqual({
      ApplicationName: d.group.Properties.ApplicationName,
      DeploymentGroupName: { Ref: d.groupId },
      BeforeAllowTrafficHook: { Ref: d.hookId },
      AfterAllowTrafficHook: { Ref: d.bakeId },
    });
    expect(d.alias.Properties).not.toHaveProperty('ProvisionedConcurrencyConfig');
  });

  test('shifts 10 % of traffic for 5 minutes, then all; rolls back when it fails, is stopped, or an alarm fires', () => {
    expect(d.group.Properties).toMatchObject({
      DeploymentConfigName: 'CodeDeployDefault.LambdaCanary10Percent5Minutes',
      DeploymentStyle: { DeploymentType: 'BLUE_GREEN', DeploymentOption: 'WITH_TRAFFIC_CONTROL' },
      AutoRollbackConfiguration: { Enabled: true, Events: ['DEPLOYMENT_FAILURE', 'DEPLOYMENT_STOP_ON_REQUEST', 'DEPLOYMENT_STOP_ON_ALARM'] },
      AlarmConfiguration: { Enabled: true },
    });
    expect(d.group.Properties.AlarmConfiguration).not.toHaveProperty('IgnorePollAlarmFailure', true);
  });

  test(`is stopped by its errors, throttles and p99 latency alarms${http ? ' and its 5xx rate' : consumer ? ' and its failed batch items' : ''}, and by no other`, () => {
    const expected = [
      `${name}-errors`,
      `${name}-throttles`,
      `${name}-latency-p99`,
      ...(http ? [`${name}-5xx-rate`] : []),
      ...(consumer ? [`${name}-failed-items`] : []),
    ];
    expect(Object.keys(alarms).sort()).toEqual(expected.sort());
  });

  test('its version is kept when a later release replaces it, and deleted when its own release is rolled back (DeletionPolicy RetainExceptOnCreate, UpdateReplacePolicy Retain)', () => {
    const version = all(template, 'AWS::Lambda::Version')[d.versionId] as Resource & { DeletionPolicy?: string; UpdateReplacePolicy?: string };
    expect([version.DeletionPolicy, version.UpdateReplacePolicy]).toEqual(['RetainExceptOnCreate', 'Retain']);
  });

  test('its description, and so each version it publishes, names the commit it was built from', () => {
    expect(d.fn.Properties.Description).toMatch(new RegExp(`^${description}.+ \\(commit ${COMMIT}\\)$`));
    expect(commitOfDescription(d.fn.Properties.Description)).toBe(COMMIT);
  });

  test("each of its alarms is named after the version it judges, so a release's alarms are new ones, with no state carried over", () => {
    for (const alarm of Object.values(alarms)) expect(alarm.namedVersion).toEqual({ 'Fn::GetAtt': [d.versionId, 'Version'] });
  });

  const newVersion = () => ({
    FunctionName: { Ref: d.fnId },
    Resource: { 'Fn::Join': ['', [{ Ref: d.fnId }, ':live']] },
    ExecutedVersion: { 'Fn::GetAtt': [d.versionId, 'Version'] },
  });

  test('its p99 latency alarm judges the new version alone: its invocations through the alias, by ExecutedVersion, in 2 of 3 minutes', () => {
    const alarm = alarms[`${name}-latency-p99`]!;
    expect(metricOf(alarm)).toEqual({ namespace: 'AWS/Lambda', name: 'Duration', stat: 'p99', period: 60, dimensions: newVersion() });
    expect(alarm).toMatchObject({
      Threshold: p99,
      DatapointsToAlarm: 2,
      EvaluationPeriods: 3,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
  });

  if (sustained) {
    test(`its errors and throttles alarms need a sustained failure: ${CONSUMER_FAILURE_PERCENT} % of the new version's invocations, from one, in ${CONSUMER_DATAPOINTS} of ${CONSUMER_PERIODS} minutes`, () => {
      for (const [what, metricName] of [
        ['errors', 'Errors'],
        ['throttles', 'Throttles'],
      ] as const) {
        const alarm = alarms[`${name}-${what}`]!;
        expect(alarm.Metrics.find((m: { Expression?: string }) => m.Expression).Expression).toBe(
          'IF(FILL(failures, 0) >= 1, 100 * FILL(failures, 0) / requests, 0)',
        );
        for (const [id, metric] of [
          ['failures', metricName],
          ['requests', 'Invocations'],
        ]) {
          const { MetricStat } = alarm.Metrics.find((m: { Id: string }) => m.Id === id);
          expect(MetricStat).toMatchObject({ Period: 60, Stat: 'Sum', Metric: { Namespace: 'AWS/Lambda', MetricName: metric } });
          expect(Object.fromEntries(MetricStat.Metric.Dimensions.map((x: { Name: string; Value: unknown }) => [x.Name, x.Value]))).toEqual(newVersion());
        }
        expect(alarm).toMatchObject({ Threshold: CONSUMER_FAILURE_PERCENT, DatapointsToAlarm: CONSUMER_DATAPOINTS, EvaluationPeriods: CONSUMER_PERIODS });
      }
    });
  } else {
    test('its errors and throttles alarms fire on one failed or refused invocation of the new version (it answers every error it handles)', () => {
      for (const [what, metricName] of [
        ['errors', 'Errors'],
        ['throttles', 'Throttles'],
      ] as const) {
        const alarm = alarms[`${name}-${what}`]!;
        expect(metricOf(alarm)).toEqual({ namespace: 'AWS/Lambda', name: metricName, stat: 'Sum', period: 60, dimensions: newVersion() });
        expect(alarm).toMatchObject({ Threshold: 1, DatapointsToAlarm: 1, EvaluationPeriods: 1 });
      }
    });
  }

  if (http) {
    test("its 5xx-rate alarm divides the new version's ServerErrors by its RequestsTotal (request metrics by functionVersion, in the stack's namespace), from 1 in a minute, in 2 of 3 minutes", () => {
      const alarm = alarms[`${name}-5xx-rate`]!;
      expect(alarm.Metrics.find((m: { Expression?: string }) => m.Expression).Expression).toBe(
        'IF(FILL(failures, 0) >= 1, 100 * FILL(failures, 0) / requests, 0)',
      );
      for (const [id, metricName] of [
        ['failures', 'ServerErrors'],
        ['requests', 'RequestsTotal'],
      ]) {
        const { MetricStat } = alarm.Metrics.find((m: { Id: string }) => m.Id === id);
        expect(MetricStat).toMatchObject({ Period: 60, Stat: 'Sum', Metric: { Namespace: stackMetricsNamespace(STACK), MetricName: metricName } });
        expect(MetricStat.Metric.Dimensions).toEqual([
          { Name: 'functionVersion', Value: { 'Fn::GetAtt': [d.versionId, 'Version'] } },
          { Name: 'service', Value: http },
        ]);
      }
      expect(alarm).toMatchObject({ Threshold: 1, DatapointsToAlarm: 2, EvaluationPeriods: 3 });
    });
  }

  if (consumer) {
    test(`its failed-items alarm needs ${CONSUMER_FAILURE_PERCENT} % of the new version's batch items failed, from one, in ${CONSUMER_DATAPOINTS} of ${CONSUMER_PERIODS} minutes (FailedBatchItems over BatchItems by functionVersion)`, () => {
      const alarm = alarms[`${name}-failed-items`]!;
      expect(alarm.Metrics.find((m: { Expression?: string }) => m.Expression).Expression).toBe(
        'IF(FILL(failures, 0) >= 1, 100 * FILL(failures, 0) / requests, 0)',
      );
      for (const [id, metricName] of [
        ['failures', 'FailedBatchItems'],
        ['requests', 'BatchItems'],
      ]) {
        const { MetricStat } = alarm.Metrics.find((m: { Id: string }) => m.Id === id);
        expect(MetricStat).toMatchObject({ Period: 60, Stat: 'Sum', Metric: { Namespace: stackMetricsNamespace(STACK), MetricName: metricName } });
        expect(MetricStat.Metric.Dimensions).toEqual([
          { Name: 'functionVersion', Value: { 'Fn::GetAtt': [d.versionId, 'Version'] } },
          { Name: 'service', Value: consumer },
        ]);
      }
      expect(alarm).toMatchObject({
        Threshold: CONSUMER_FAILURE_PERCENT,
        DatapointsToAlarm: CONSUMER_DATAPOINTS,
        EvaluationPeriods: CONSUMER_PERIODS,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
      });
      expect(d.fn.Properties.Environment.Variables).toMatchObject({
        POWERTOOLS_SERVICE_NAME: consumer,
        POWERTOOLS_METRICS_NAMESPACE: stackMetricsNamespace(STACK),
      });
    });
  }

  test("its alarms notify no one (CodeDeploy acts on them) and link the runbook's rollback section", () => {
    const runbook = readFileSync(join(__dirname, '..', '..', 'docs', 'runbook.md'), 'utf8');
    expect(runbook).toMatch(/^## A deployment was rolled back$/m);
    for (const alarm of Object.values(alarms)) {
      expect(alarm.AlarmActions).toBeUndefined();
      expect(alarm.OKActions).toBeUndefined();
      expect(alarm.AlarmDescription).toMatch(/CodeDeploy stops it and shifts all traffic back\. Runbook: docs\/runbook\.md#a-deployment-was-rolled-back$/);
    }
  });

  test("its pre-traffic hook: a Node.js 22 function of its own, told the new version and the probes of this function, each timed by the function's timeout", () => {
    expect(d.hook.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], Handler: 'index.handler' });
    const env = d.hook.Properties.Environment.Variables;
    expect(env.TARGET_VERSION_ARN).toEqual({ Ref: d.versionId });
    const timed = probes.map((probe) => ({ timeoutMs: d.fn.Properties.Timeout * 1000, ...probe }));
    const written = JSON.stringify(env.PROBES);
    if (name === 'control-room') {
      // Its signed probe names the hook's role, a reference in the template.
      expect(written).toContain(JSON.stringify(JSON.stringify(timed[0])).slice(1, -1));
    } else {
      expect(JSON.parse(env.PROBES)).toEqual(JSON.parse(JSON.stringify(timed)));
    }
  });

  test("its pre-traffic hook's timeout covers every probe waiting out the function's timeout and a cold start, IAM's delay, and the report", () => {
    const probeMs = d.fn.Properties.Timeout * 1000;
    const needed = probes.length * probeBudgetMs(probeMs) + ACCESS_DENIED_WINDOW_MS + REPORT_WINDOW_MS;
    expect(d.hook.Properties.Timeout * 1000).toBeGreaterThan(needed);
    expect(d.hook.Properties.Timeout).toBe(hookTimeoutSeconds(probes.map(() => probeMs)));
    expect(d.hook.Properties.Timeout).toBeLessThanOrEqual(900);
  });

  test("its pre-traffic hook writes to a log group of its own, kept as long as the function's (30 days; the control room's 60), and to no other", () => {
    const logGroupId = d.hook.Properties.LoggingConfig.LogGroup.Ref as string;
    expect(all(template, 'AWS::Logs::LogGroup')[logGroupId]!.Properties.RetentionInDays).toBe(name === 'control-room' ? 60 : 30);
    const [fn] = Object.values(all(template, 'AWS::Lambda::Function')).filter((f) => f.Properties.Description?.startsWith(description));
    expect(fn!.Properties.LoggingConfig.LogGroup.Ref).not.toBe(logGroupId);
  });

  test('its pre-traffic hook may invoke only the new version, report only to its own deployment group, hand a failure to the reporter, and write its logs', () => {
    const reporterId = reporterOf(template);
    const roleId = d.hook.Properties.Role['Fn::GetAtt'][0] as string;
    expect(all(template, 'AWS::IAM::Role')[roleId]!.Properties.ManagedPolicyArns).toBeUndefined();
    const statements = statementsOf(template, roleId);
    expect(statements).toHaveLength(4);
    expect(statements).toEqual(
      expect.arrayContaining([
        {
          Effect: 'Allow',
          Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          Resource: { 'Fn::GetAtt': [d.hook.Properties.LoggingConfig.LogGroup.Ref, 'Arn'] },
        },
        { Effect: 'Allow', Action: 'lambda:InvokeFunction', Resource: { Ref: d.versionId } },
        {
          Effect: 'Allow',
          Action: 'lambda:InvokeFunction',
          Resource: [{ 'Fn::GetAtt': [reporterId, 'Arn'] }, { 'Fn::Join': ['', [{ 'Fn::GetAtt': [reporterId, 'Arn'] }, ':*']] }],
        },
        {
          Effect: 'Allow',
          Action: 'codedeploy:PutLifecycleEventHookExecutionStatus',
          Resource: {
            'Fn::Join': [
              '',
              [
                'arn:',
                { Ref: 'AWS::Partition' },
                ':codedeploy:eu-west-1:123456789012:deploymentgroup:',
                d.group.Properties.ApplicationName,
                '/',
                { Ref: d.groupId },
              ],
            ],
          },
        },
      ]),
    );
  });

  test("its bake: a hook of its own watches exactly this release's alarms for 10 minutes after the switch, its timeout covering the bake, a last read and the report", () => {
    const env = d.bake!.Properties.Environment.Variables;
    expect(env.BAKE_SECONDS).toBe('600');
    const names = JSON.stringify(env.ALARM_NAMES);
    const groupAlarmIds = (d.group.Properties.AlarmConfiguration.Alarms as { Name: { Ref: string } }[]).map(({ Name }) => Name.Ref).sort();
    expect([...names.matchAll(/"Ref":"(\w+)"/g)].map((m) => m[1]).sort()).toEqual(groupAlarmIds);
    expect(d.bake!.Properties.Timeout).toBe(postTrafficHookTimeoutSeconds(600));
    expect(d.bake!.Properties.Timeout).toBeLessThanOrEqual(900);
    expect(d.bake!.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'] });
  });

  test("its bake may read only this function's release alarms, report only to its own deployment group, hand a failure to the reporter, and write its logs", () => {
    const roleId = d.bake!.Properties.Role['Fn::GetAtt'][0] as string;
    const statements = statementsOf(template, roleId);
    expect(statements).toHaveLength(4);
    expect(statements).toContainEqual({
      Effect: 'Allow',
      Action: 'cloudwatch:DescribeAlarms',
      Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:cloudwatch:eu-west-1:123456789012:alarm:${STACK}-deploy-${name}-*`]] },
    });
    expect(JSON.stringify(statements)).toContain('codedeploy:PutLifecycleEventHookExecutionStatus');
    expect(JSON.stringify(statements)).toContain(`{"Ref":"${d.groupId}"}`);
  });

  test('its hooks hand an invocation that failed before reporting to the reporter, which reports Failed at once instead of CodeDeploy waiting an hour', () => {
    const reporterId = reporterOf(template);
    for (const hookId of [d.hookId, d.bakeId]) {
      template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
        FunctionName: { Ref: hookId },
        MaximumRetryAttempts: 0,
        DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [reporterId, 'Arn'] } } },
      });
    }
  });

  test("only CodeDeploy's role for this group may invoke the hook: no API route, URL or permission reaches it", () => {
    const serviceRoleId = d.group.Properties.ServiceRoleArn['Fn::GetAtt'][0] as string;
    const invokers = Object.values(all(template, 'AWS::IAM::Policy')).filter((p) => JSON.stringify(p.Properties.PolicyDocument).includes(`"${d.hookId}"`));
    expect(invokers.map((p) => p.Properties.Roles)).toEqual([[{ Ref: serviceRoleId }]]);
    for (const type of ['AWS::ApiGateway::Method', 'AWS::Lambda::Url', 'AWS::Lambda::Permission']) {
      expect(JSON.stringify(all(template, type))).not.toContain(`"${d.hookId}"`);
    }
  });
});

describe('when a hook cannot run', () => {
  test("the reporter may only report to the stack's own deployment groups, and write its logs", () => {
    const reporterId = reporterOf(template);
    const fn = all(template, 'AWS::Lambda::Function')[reporterId]!;
    const statements = statementsOf(template, fn.Properties.Role['Fn::GetAtt'][0] as string);
    const [appId] = only(template, 'AWS::CodeDeploy::Application', { ComputePlatform: 'Lambda' });
    expect(statements).toHaveLength(2);
    expect(statements).toContainEqual({
      Effect: 'Allow',
      Action: 'codedeploy:PutLifecycleEventHookExecutionStatus',
      Resource: {
        'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':codedeploy:eu-west-1:123456789012:deploymentgroup:', { Ref: appId }, '/*']],
      },
    });
  });

  test('the release-hook-failed alarm pages on-call when the reporter was invoked or failed', () => {
    const reporterId = reporterOf(template);
    const [, alarm] = only(template, 'AWS::CloudWatch::Alarm', { AlarmName: `${STACK}-release-hook-failed` });
    expect(alarm.Properties.AlarmActions).toHaveLength(1);
    expect(alarm.Properties.Metrics.find((m: { Expression?: string }) => m.Expression).Expression).toBe('FILL(failed, 0) + FILL(reporterErrors, 0)');
    expect(JSON.stringify(alarm.Properties.Metrics)).toContain(`{"Name":"FunctionName","Value":{"Ref":"${reporterId}"}}`);
    expect(alarm.Properties).toMatchObject({ Threshold: 1, EvaluationPeriods: 1 });
  });
});

describe('callers invoke the aliases, never $LATEST', () => {
  test('API Gateway: /ingest/v1/{proxy+} and /ingest/sentry/{proxy+} invoke the ingest alias, /sourcemaps/v1/{proxy+} the source maps alias, every other method the contacts alias, with invoke permissions on those aliases', () => {
    const contacts = deploymentOf(template, 'Contacts API');
    const ingest = deploymentOf(template, 'Contacts ingest API');
    const sourceMaps = deploymentOf(template, 'Contacts source maps API');
    const methods = Object.values(all(template, 'AWS::ApiGateway::Method'));
    const targets = methods.flatMap((m) =>
      JSON.stringify(m.Properties.Integration.Uri)
        .match(/"Ref":"(\w+)"/g)
        ?.filter((ref) => !ref.includes('AWS::')),
    );
    expect(targets.sort()).toEqual(
      [...Array(7).fill(`"Ref":"${contacts.aliasId}"`), ...Array(2).fill(`"Ref":"${ingest.aliasId}"`), `"Ref":"${sourceMaps.aliasId}"`].sort(),
    );
    const gatewayPermissions = Object.values(all(template, 'AWS::Lambda::Permission', { Principal: 'apigateway.amazonaws.com' }));
    expect(gatewayPermissions).toHaveLength(10);
    for (const permission of gatewayPermissions)
      expect([{ Ref: contacts.aliasId }, { Ref: ingest.aliasId }, { Ref: sourceMaps.aliasId }]).toContainEqual(permission.Properties.FunctionName);
  });

  test("the control room's function URL serves its alias, and the control room's role is granted the alias", () => {
    const control = deploymentOf(template, 'Contacts control room');
    const [, url] = only(template, 'AWS::Lambda::Url', { TargetFunctionArn: { 'Fn::GetAtt': [control.fnId, 'Arn'] } });
    expect(url.Properties).toEqual({ AuthType: 'AWS_IAM', Qualifier: 'live', TargetFunctionArn: { 'Fn::GetAtt': [control.fnId, 'Arn'] } });
    expect(url.DependsOn).toContain(control.aliasId);
    const permissions = Object.values(all(template, 'AWS::Lambda::Permission', { Principal: 'arn:aws:iam::123456789012:role/ControlRoom' }));
    expect(permissions.map((p) => p.Properties.FunctionName)).toEqual([{ Ref: control.aliasId }, { Ref: control.aliasId }]);
  });

  test('asynchronous invocations of an alias are never retried, as of the function itself', () => {
    for (const description of ['Contacts API', 'Contacts ingest API', 'Contacts control room']) {
      const { fnId, aliasId } = deploymentOf(template, description);
      // CDK names the alias by its ARN's last part: Fn::Select 7 of Fn::Split ':' of the alias' Ref.
      const qualifier = { 'Fn::Select': [7, { 'Fn::Split': [':', { Ref: aliasId }] }] };
      template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', { FunctionName: { Ref: fnId }, Qualifier: qualifier, MaximumRetryAttempts: 0 });
    }
  });
});

describe('fresh alarms per release', () => {
  test('a changed function is a new version, and its deployment alarms get new names with it: CloudFormation makes new alarms, which start from no state', () => {
    const { template: changed } = synthStack({ controlRoomRoleArn: 'arn:aws:iam::123456789012:role/ControlRoom', commit: COMMIT, logLevel: 'DEBUG' }, STACK);
    const before = deploymentOf(template, 'Contacts API');
    const after = deploymentOf(changed, 'Contacts API');
    expect(after.versionId).not.toBe(before.versionId);
    const names = (t: Template, d: ReturnType<typeof deploymentOf>) => Object.values(groupAlarms(t, d.group)).map((alarm) => JSON.stringify(alarm.AlarmName));
    const [old, fresh] = [names(template, before), names(changed, after)];
    expect(fresh).toHaveLength(old.length);
    for (const name of fresh) expect(old).not.toContain(name);
  }, 60_000);

  test('another commit is a new version of every released function: each version names the commit it runs', () => {
    const other = 'f'.repeat(40);
    const { template: next } = synthStack({ controlRoomRoleArn: 'arn:aws:iam::123456789012:role/ControlRoom', commit: other }, STACK);
    for (const { description } of FUNCTIONS) {
      const [before, after] = [deploymentOf(template, description), deploymentOf(next, description)];
      expect(after.versionId).not.toBe(before.versionId);
      expect(commitOfDescription(after.fn.Properties.Description)).toBe(other);
    }
  }, 60_000);
});

describe('deploy options', () => {
  test('trafficShift=all-at-once: every deployment group moves all traffic at once, still after its hook and still stopped by its alarms', () => {
    const { template: dev } = synthStack({ stageName: 'dev', trafficShift: 'all-at-once' }, 'TestAllAtOnce');
    const groups = Object.values(all(dev, 'AWS::CodeDeploy::DeploymentGroup'));
    expect(groups).toHaveLength(FUNCTIONS.length);
    for (const group of groups) {
      expect(group.Properties.DeploymentConfigName).toBe('CodeDeployDefault.LambdaAllAtOnce');
      expect(group.Properties.AlarmConfiguration.Alarms.length).toBeGreaterThanOrEqual(3);
    }
    for (const alias of Object.values(all(dev, 'AWS::Lambda::Alias'))) {
      expect(alias.UpdatePolicy.CodeDeployLambdaAliasUpdate.BeforeAllowTrafficHook).toBeDefined();
      // All at once still bakes: the alarms get their minutes of metrics after the switch.
      expect(alias.UpdatePolicy.CodeDeployLambdaAliasUpdate.AfterAllowTrafficHook).toBeDefined();
    }
  }, 60_000);

  test('bakeMinutes=N: every bake watches N minutes; 0 on a development stage: no bake hook at all', () => {
    const { template: quick } = synthStack({ stageName: 'dev', bakeMinutes: 3 }, 'TestBake3');
    const bakes = Object.values(all(quick, 'AWS::Lambda::Function', { Description: Match.stringLikeRegexp('^Bake of the ') }));
    expect(bakes.map((fn) => fn.Properties.Environment.Variables.BAKE_SECONDS)).toEqual(Array(FUNCTIONS.length).fill('180'));
    const { template: none } = synthStack({ stageName: 'dev', bakeMinutes: 0 }, 'TestBake0');
    expect(all(none, 'AWS::Lambda::Function', { Description: Match.stringLikeRegexp('^Bake of the ') })).toEqual({});
    for (const alias of Object.values(all(none, 'AWS::Lambda::Alias')))
      expect(alias.UpdatePolicy.CodeDeployLambdaAliasUpdate.AfterAllowTrafficHook).toBeUndefined();
  }, 60_000);

  test("provisionedConcurrency=N: the contacts API's alias keeps N environments initialized, the other aliases none", () => {
    const { template: warm } = synthStack({ provisionedConcurrency: 3 }, 'TestWarm');
    const aliases = Object.values(all(warm, 'AWS::Lambda::Alias'));
    const { aliasId } = deploymentOf(warm, 'Contacts API');
    expect(all(warm, 'AWS::Lambda::Alias')[aliasId]!.Properties.ProvisionedConcurrencyConfig).toEqual({ ProvisionedConcurrentExecutions: 3 });
    expect(aliases.filter((a) => a.Properties.ProvisionedConcurrencyConfig)).toHaveLength(1);
  }, 60_000);
});
