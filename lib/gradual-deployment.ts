import { ArnFormat, Duration, Stack, type RemovalPolicy } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, Metric, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { LambdaDeploymentConfig, LambdaDeploymentGroup, type ILambdaDeploymentConfig, type LambdaApplication } from 'aws-cdk-lib/aws-codedeploy';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Alias, type IFunction, type Version } from 'aws-cdk-lib/aws-lambda';
import { LambdaDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { hookTimeoutSeconds, postTrafficHookTimeoutSeconds } from '../lambda/infrastructure/deploy/hook-timing';
import type { Probe } from '../lambda/infrastructure/deploy/probes';
import { DIMENSIONS, METRIC } from '../lambda/infrastructure/observability/names';
import { failureRate, RUNBOOK } from './alarms';
import { LIVE_ALIAS } from './live-alias';
import type { LogLevel, TrafficShift } from './deploy-options';
import { BUNDLING, NO_ASYNC_DESTINATION, ServiceFunction } from './service-function';

/**
 * The hook's bundle: the service's, but with the SDK's event-stream codec,
 * which the Lambda client's module imports (for InvokeWithResponseStream,
 * which the hook never calls, but the import must resolve).
 */
const HOOK_BUNDLING = {
  ...BUNDLING,
  esbuildArgs: Object.fromEntries(Object.entries(BUNDLING.esbuildArgs ?? {}).filter(([flag]) => !flag.includes('event-streams'))),
};

export { LIVE_ALIAS };

/** The runbook section every deployment alarm links. */
export const ROLLBACK_RUNBOOK = `${RUNBOOK}#a-deployment-was-rolled-back`;

/**
 * What every released function of a stack shares (lib/released-function.ts):
 * the stack makes it once and hands it to each construct that has a function.
 */
export interface ReleaseSettings {
  /** The stack's CodeDeploy application: one per stack, a deployment group per function in it. */
  application: LambdaApplication;
  trafficShift: TrafficShift;
  /** `LOG_LEVEL` of every function. */
  logLevel: LogLevel;
  /** Of every function's log group, and each hook's. */
  logRetention: RetentionDays;
  /** What deleting the stack does to those log groups. */
  logRemovalPolicy: RemovalPolicy;
  /** The stack's own metrics namespace (stackMetricsNamespace): what its functions write in, and its alarms read. */
  metricsNamespace: string;
  /** The commit the release is built from (lib/release-commit.ts): in every released function's description, so in each version's. */
  commit: string;
  /** Minutes the post-traffic hook watches a release's alarms after all traffic moved to it; 0: no bake. */
  bakeMinutes: number;
  /** Where a hook that fails before it reports is handed (lib/hook-failures.ts): it reports Failed for it at once. */
  hookFailures: IFunction;
}

/**
 * The function's own per-version metrics, which its deployment also judges:
 * `requests`, an HTTP function's request metrics (the 5xx-rate alarm);
 * `batch-items`, a stream or queue consumer's batch counts (the
 * failed-items alarm: it catches its errors and answers failed items, so
 * Lambda counts no error).
 */
export type OwnMetrics = 'requests' | 'batch-items';

export interface GradualDeploymentProps {
  settings: ReleaseSettings;
  /** Short name in the alarms' names: `<stack>-deploy-<name>-errors-v<version>`. */
  name: string;
  /** What the hook sends the new version; given the hook's role ARN, for a probe that must name its caller. */
  probes: (hookRoleArn: string) => Probe[];
  /** Lambda duration p99, ms, at or above which the new version is too slow (2 of 3 minutes). */
  p99DurationMs: number;
  /** The function's `service` (POWERTOOLS_SERVICE_NAME): the dimension its own metrics carry. */
  service: string;
  ownMetrics?: OwnMetrics;
  /**
   * A stream or queue consumer: a store's hiccup fails a batch now and then (retried, nothing lost), so its errors,
   * throttles and failed items judge it as a share of its batches over 3 of 5 minutes, never on one minute's blip.
   */
  consumer?: boolean;
  /** Execution environments kept initialized on the alias; none when absent or 0. */
  provisionedConcurrency?: number;
}

/** A deployment alarm before it is made: what it means, its metric, and when it fires (of 1-minute periods). */
interface VersionAlarmSpec {
  slug: string;
  meaning: string;
  metric: IMetric;
  threshold: number;
  datapoints: number;
  periods: number;
}

/** The start of the names of a function's release alarms: `<stack>-deploy-<name>`. */
export const releaseAlarmPrefix = (stackName: string, name: string): string => `${stackName}-deploy-${name}`;

/** A deployment alarm: what it means, and the alarm. */
export interface DeploymentAlarm {
  slug: string;
  alarm: Alarm;
}

const MINUTE = Duration.minutes(1);

/**
 * The 5xx-rate alarm's floor: a minute's rate counts from this many 5xx. One:
 * at 10 % of a quiet API the new version may answer a handful of requests a
 * minute, and a floor of 3 would never be reached; two such minutes of
 * three are asked for instead, so that a lone 503 does not stop a release.
 */
export const VERSION_5XX_FLOOR = 1;

/**
 * How a consumer's release is judged (GradualDeploymentProps.consumer): its failures as a share of its work, at
 * least CONSUMER_FAILURE_PERCENT and from one failure, in CONSUMER_DATAPOINTS of CONSUMER_PERIODS minutes.
 */
export const CONSUMER_FAILURE_PERCENT = 10;
export const CONSUMER_DATAPOINTS = 3;
export const CONSUMER_PERIODS = 5;

/** A principal that stands in for the hook's role when the probes are only counted and timed. */
const ANY_PRINCIPAL = 'arn:aws:iam::000000000000:role/pre-traffic-hook';

const CONFIGS: Record<TrafficShift, ILambdaDeploymentConfig> = {
  canary: LambdaDeploymentConfig.CANARY_10PERCENT_5MINUTES,
  'all-at-once': LambdaDeploymentConfig.ALL_AT_ONCE,
};

/**
 * Deploys a function gradually (docs/deploying.md#how-a-release-reaches-traffic):
 * each `cdk deploy` that changes it publishes a version (kept: its
 * CloudFormation resource is retained, so an earlier version stays there to
 * go back to); CodeDeploy runs the pre-traffic hook on that version, then
 * shifts the `live` alias to it (10 % for 5 minutes, then all; or all at
 * once), stopping and rolling back as soon as one of the version's alarms
 * fires. Made by lib/released-function.ts with the function itself; then
 * everything that invokes the function invokes `alias`: an API Gateway
 * integration (`new LambdaIntegration(alias)`), a function URL
 * (`alias.addFunctionUrl`), and for a function fed by a stream or a queue
 * the event source mapping (`alias.addEventSource(new DynamoEventSource(…))`,
 * never `fn.addEventSource`: a mapping on the function itself would run
 * $LATEST, skipping the canary, the hook and the rollback).
 *
 * The alarms judge the new version alone: Lambda's metrics through the
 * alias carry `ExecutedVersion`, and the function's own metrics
 * `functionVersion` (lambda/infrastructure/observability); each alarm is named after this
 * deploy's version, so a release gets new alarms, which start with no state.
 * They have no SNS action: CodeDeploy acts on them, and the stack's own
 * alarms (lib/alarms.ts) keep paging about the live service.
 */
export class GradualDeployment extends Construct {
  readonly version: Version;
  readonly alias: Alias;
  readonly group: LambdaDeploymentGroup;
  readonly hook: ServiceFunction;
  /** The bake's hook (AfterAllowTraffic), unless the stack bakes for 0 minutes. */
  readonly bake?: ServiceFunction;
  readonly alarms: DeploymentAlarm[];

  constructor(scope: Construct, id: string, fn: ServiceFunction, props: GradualDeploymentProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.version = fn.currentVersion;
    const provisioned = props.provisionedConcurrency ?? 0;
    this.alias = new Alias(this, 'Live', {
      aliasName: LIVE_ALIAS,
      version: this.version,
      ...(provisioned > 0 ? { provisionedConcurrentExecutions: provisioned } : {}),
      // As ServiceFunction's own setting: async invocations are never retried (they reach the alias, not $LATEST).
      retryAttempts: 0,
    });

    // Each probe waits at most the function's own timeout and a cold start; the hook's timeout is their sum and its report's time.
    const timed = (principal: string) => props.probes(principal).map((probe) => ({ timeoutMs: fn.timeout?.toMilliseconds(), ...probe }));
    const hookTimeout = hookTimeoutSeconds(timed(ANY_PRINCIPAL).map((probe) => probe.timeoutMs ?? 0));
    this.hook = new ServiceFunction(this, 'PreTrafficHook', {
      description: `Pre-traffic check of the ${fn.title} function: sends its new version synthetic requests before CodeDeploy shifts traffic`,
      entry: 'infrastructure/deploy/pre-traffic-hook-entry.ts',
      bundling: HOOK_BUNDLING,
      timeout: Duration.seconds(hookTimeout),
      memorySize: 256,
      logRetention: props.settings.logRetention,
      logRemovalPolicy: props.settings.logRemovalPolicy,
      environment: { TARGET_VERSION_ARN: this.version.functionArn, LOG_LEVEL: 'INFO' },
      // CodeDeploy invokes hooks asynchronously: one that fails before it reports is handed over, and reported Failed at once.
      onFailure: new LambdaDestination(props.settings.hookFailures),
    });
    const hookRole = this.hook.role;
    if (!hookRole) throw new Error('the pre-traffic hook function has no role');
    this.hook.addEnvironment('PROBES', stack.toJsonString(timed(hookRole.roleArn)));
    // Least privilege: the version under test, and nothing else (not the alias, not $LATEST).
    hookRole.addToPrincipalPolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.version.functionArn] }));

    this.alarms = this.versionAlarms(fn, props);
    this.bake = props.settings.bakeMinutes > 0 ? this.bakeHook(fn, props) : undefined;
    this.group = new LambdaDeploymentGroup(this, 'Group', {
      application: props.settings.application,
      alias: this.alias,
      deploymentConfig: CONFIGS[props.settings.trafficShift],
      alarms: this.alarms.map(({ alarm }) => alarm),
      // Grants each hook codedeploy:PutLifecycleEventHookExecutionStatus on this group only, and CodeDeploy the hooks' invocation.
      preHook: this.hook,
      ...(this.bake ? { postHook: this.bake } : {}),
      autoRollback: { failedDeployment: true, stoppedDeployment: true, deploymentInAlarm: true },
    });
    this.suppressNagFindings();
  }

  /**
   * The bake (docs/deploying.md#the-bake): after all traffic moved to the new version, its post-traffic hook watches
   * the version's own alarms for bakeMinutes and reports Failed at the first in ALARM, which rolls the release back.
   * Least privilege: it may read this function's release alarms and report to its own group (granted by the group).
   */
  private bakeHook(fn: ServiceFunction, props: GradualDeploymentProps): ServiceFunction {
    const stack = Stack.of(this);
    const bakeSeconds = props.settings.bakeMinutes * 60;
    const bake = new ServiceFunction(this, 'PostTrafficHook', {
      description: `Bake of the ${fn.title} function: watches its new version's alarms for ${props.settings.bakeMinutes} minutes after CodeDeploy shifted all traffic`,
      entry: 'infrastructure/deploy/post-traffic-hook-entry.ts',
      bundling: HOOK_BUNDLING,
      timeout: Duration.seconds(postTrafficHookTimeoutSeconds(bakeSeconds)),
      memorySize: 256,
      logRetention: props.settings.logRetention,
      logRemovalPolicy: props.settings.logRemovalPolicy,
      environment: {
        ALARM_NAMES: stack.toJsonString(this.alarms.map(({ alarm }) => alarm.alarmName)),
        BAKE_SECONDS: String(bakeSeconds),
        LOG_LEVEL: 'INFO',
      },
      onFailure: new LambdaDestination(props.settings.hookFailures),
    });
    bake.addToRolePolicy(
      new PolicyStatement({
        actions: ['cloudwatch:DescribeAlarms'],
        resources: [
          stack.formatArn({
            service: 'cloudwatch',
            resource: 'alarm',
            resourceName: `${releaseAlarmPrefix(stack.stackName, props.name)}-*`,
            arnFormat: ArnFormat.COLON_RESOURCE_NAME,
          }),
        ],
      }),
    );
    return bake;
  }

  /** Errors, throttles and p99 duration of the new version, and its 5xx rate or its failed items by its own metrics. */
  private versionAlarms(fn: ServiceFunction, props: GradualDeploymentProps): DeploymentAlarm[] {
    const specs = [...this.lambdaSpecs(fn, props), ...this.ownMetricSpecs(props)];
    const prefix = releaseAlarmPrefix(Stack.of(this).stackName, props.name);
    return specs.map((spec) => ({
      slug: spec.slug,
      alarm: new Alarm(this, `Alarm-${spec.slug}`, {
        // The version in the name: each release's alarms are new ones, judging it from no state at all, never
        // from the state its predecessor's alarms reached (an alarm whose metric is changed keeps its state).
        alarmName: `${prefix}-${spec.slug}-v${this.version.version}`,
        alarmDescription: `${spec.meaning} During a deployment CodeDeploy stops it and shifts all traffic back. Runbook: ${ROLLBACK_RUNBOOK}`,
        metric: spec.metric,
        threshold: spec.threshold,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: spec.periods,
        datapointsToAlarm: spec.datapoints,
        // No traffic on the new version yet is no evidence against it.
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    }));
  }

  /**
   * Lambda's own metrics of the new version: invocations through the alias, counted for the version that ran them.
   * A request-serving function answers every error it handles, so one failed invocation judges it; a consumer's
   * failures judge it as a share of its invocations over 3 of 5 minutes (GradualDeploymentProps.consumer).
   */
  private lambdaSpecs(fn: ServiceFunction, props: GradualDeploymentProps): VersionAlarmSpec[] {
    const lambdaMetric = (metricName: string, statistic: string, label: string) =>
      new Metric({
        namespace: 'AWS/Lambda',
        metricName,
        dimensionsMap: { FunctionName: fn.functionName, Resource: `${fn.functionName}:${LIVE_ALIAS}`, ExecutedVersion: this.version.version },
        statistic,
        period: MINUTE,
        label,
      });
    const latency: VersionAlarmSpec = {
      slug: 'latency-p99',
      meaning: `The new version's duration p99 reached ${props.p99DurationMs} ms in 2 of 3 minutes.`,
      metric: lambdaMetric('Duration', 'p99', 'new version duration p99 (ms)'),
      threshold: props.p99DurationMs,
      datapoints: 2,
      periods: 3,
    };
    if (props.consumer) {
      const invocations = lambdaMetric('Invocations', 'Sum', 'new version invocations');
      const share = (metricName: string, what: string) =>
        failureRate(lambdaMetric(metricName, 'Sum', what), invocations, 1, `new version ${what}, % of invocations`, MINUTE);
      const sustained = { threshold: CONSUMER_FAILURE_PERCENT, datapoints: CONSUMER_DATAPOINTS, periods: CONSUMER_PERIODS };
      return [
        {
          slug: 'errors',
          meaning: `The new version failed ${CONSUMER_FAILURE_PERCENT} % or more of its batches in ${CONSUMER_DATAPOINTS} of ${CONSUMER_PERIODS} minutes (a crash, a timeout, or a store failing for minutes, not one retried hiccup).`,
          metric: share('Errors', 'errors'),
          ...sustained,
        },
        {
          slug: 'throttles',
          meaning: `Lambda refused ${CONSUMER_FAILURE_PERCENT} % or more of the new version's batches in ${CONSUMER_DATAPOINTS} of ${CONSUMER_PERIODS} minutes (concurrency exhausted; the batches are retried).`,
          metric: share('Throttles', 'throttles'),
          ...sustained,
        },
        latency,
      ];
    }
    return [
      {
        slug: 'errors',
        meaning: 'The new version failed an invocation (crash, timeout, out of memory: handled errors are answered, not failed).',
        metric: lambdaMetric('Errors', 'Sum', 'new version errors'),
        threshold: 1,
        datapoints: 1,
        periods: 1,
      },
      {
        slug: 'throttles',
        meaning: 'Lambda refused to run the new version (concurrency exhausted).',
        metric: lambdaMetric('Throttles', 'Sum', 'new version throttles'),
        threshold: 1,
        datapoints: 1,
        periods: 1,
      },
      latency,
    ];
  }

  /** The function's own metrics of the new version (lambda/infrastructure/observability): its 5xx rate, or its failed batch items. */
  private ownMetricSpecs(props: GradualDeploymentProps): VersionAlarmSpec[] {
    const byVersion = (metricName: string) =>
      new Metric({
        namespace: props.settings.metricsNamespace,
        metricName,
        dimensionsMap: { [DIMENSIONS.service]: props.service, [DIMENSIONS.functionVersion]: this.version.version },
        statistic: 'Sum',
        period: MINUTE,
      });
    if (props.ownMetrics === 'requests') {
      return [
        {
          slug: '5xx-rate',
          meaning: `At least 1 % of the new version's answers were 5xx (from ${VERSION_5XX_FLOOR} in a minute) in 2 of 3 minutes.`,
          metric: failureRate(byVersion(METRIC.serverErrors), byVersion(METRIC.requestsTotal), VERSION_5XX_FLOOR, 'new version 5xx, % of requests', MINUTE),
          threshold: 1,
          datapoints: 2,
          periods: 3,
        },
      ];
    }
    if (props.ownMetrics === 'batch-items') {
      return [
        {
          slug: 'failed-items',
          meaning: `The new version answered ${CONSUMER_FAILURE_PERCENT} % or more of its batch items as failed in ${CONSUMER_DATAPOINTS} of ${CONSUMER_PERIODS} minutes (it catches its errors, so Lambda counts none: Lambda hands the records over again, to either version).`,
          metric: failureRate(byVersion(METRIC.failedBatchItems), byVersion(METRIC.batchItems), 1, 'new version failed batch items, % of items', MINUTE),
          threshold: CONSUMER_FAILURE_PERCENT,
          datapoints: CONSUMER_DATAPOINTS,
          periods: CONSUMER_PERIODS,
        },
      ];
    }
    return [];
  }

  /** cdk-nag findings of the deployment's own resources, each with its reason. */
  private suppressNagFindings(): void {
    for (const hook of [this.hook, this.bake]) {
      const policy = hook?.role?.node.tryFindChild('DefaultPolicy');
      if (!policy) continue;
      NagSuppressions.addResourceSuppressions(policy, [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            "Lambda's on-failure destination grant is lambda:InvokeFunction on the stack's hook-failure reporter as `<ARN>` and `<ARN>:*` (a version or alias of that one function); the bake's cloudwatch:DescribeAlarms names this function's release alarms by their prefix, `<stack>-deploy-<function>-*`, since each release's alarms are named after its version.",
          appliesTo: [
            { regex: '/^Resource::<HookFailuresHandler[0-9A-F]{8}\\.Arn>:\\*$/g' },
            { regex: '/^Resource::arn:<AWS::Partition>:cloudwatch:.*:alarm:.*-deploy-.*-\\*$/g' },
          ],
        },
      ]);
    }
    const asyncConfig = this.alias.node.tryFindChild('EventInvokeConfig');
    if (asyncConfig) NagSuppressions.addResourceSuppressions(asyncConfig, [NO_ASYNC_DESTINATION]);
    const codeDeployRole = this.group.role;
    NagSuppressions.addResourceSuppressions(codeDeployRole, [
      {
        id: 'AwsSolutions-IAM4',
        reason:
          "AWSCodeDeployRoleForLambdaLimited is the policy AWS documents for CodeDeploy's service role in Lambda deployments, and the one CDK attaches to the role it creates for a deployment group: read and update the alias, read the alarms, invoke hooks named CodeDeployHook_*. It reaches CodeDeploy's own work, none of the functions' data.",
        appliesTo: ['Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited'],
      },
    ]);
    const grants = codeDeployRole.node.tryFindChild('DefaultPolicy');
    if (grants) {
      NagSuppressions.addResourceSuppressions(grants, [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            "CDK grants CodeDeploy's role lambda:InvokeFunction on this deployment's pre- and post-traffic hooks as `<hook ARN>` and `<hook ARN>:*`: the wildcard is a version or alias of those functions, not other functions.",
          appliesTo: [{ regex: '/^Resource::<.*(Pre|Post)TrafficHook[0-9A-F]{8}\\.Arn>:\\*$/g' }],
        },
      ]);
    }
  }
}
