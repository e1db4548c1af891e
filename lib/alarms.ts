import { Duration, Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { Alarm, ComparisonOperator, MathExpression, Metric, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Operation, type Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { DIMENSIONS, INGEST_SERVICE_NAME, METRIC, SERVICE_NAME } from '../lambda/infrastructure/observability/names';
import { API_RESOURCES, GATEWAY_THROTTLED_DIMENSION, GATEWAY_THROTTLED_METRIC, type ApiName } from './route-throttles';

/** Where each alarm's description points: docs/runbook.md has one section per alarm, titled by its slug. */
export const RUNBOOK = 'docs/runbook.md';

const PERIOD = Duration.minutes(5);

/**
 * One alarm. Every alarm compares with >= and treats missing data as fine:
 * no traffic is no problem, and the error metrics only exist when errors do.
 */
export interface AlarmSpec {
  /** The alarm name after the stack name, and its runbook section. */
  slug: string;
  /** What the alarm means, first line of its description. */
  meaning: string;
  metric: IMetric;
  threshold: number;
  /** Alarm when this many of the last `evaluationPeriods` 5-minute periods breach. */
  datapointsToAlarm: number;
  evaluationPeriods: number;
}

/** An alarm and the spec it was made from. */
export interface ServiceAlarm {
  spec: AlarmSpec;
  alarm: Alarm;
}

export interface ServiceAlarmsProps {
  stage: Stage;
  apiFunction: IFunction;
  ingestFunction: IFunction;
  controlRoomFunction: IFunction;
  /** The source maps upload API's function (lib/source-maps.ts). */
  sourceMapsFunction?: IFunction;
  /** The stream consumer that counts events into issues (lib/tally.ts), and where its failed batches are described. */
  tallyFunction: IFunction;
  tallyFailures: IQueue;
  contactsTable: Table;
  keysTable: Table;
  reportsTable: Table;
  /** Issue alerts' settings, destinations and deliveries (lib/tables.ts). */
  alertsTable?: Table;
  /** Issue alerts' functions and failure queues (lib/alerts.ts), when the stack has them. */
  alerts?: AlertParts;
  /** Every deployment hook's on-failure destination (lib/hook-failures.ts): invoked only when a hook failed before it reported. */
  hookFailures?: IFunction;
  /** Subscribed to the topic when given. */
  alarmEmail?: string;
  /** The stack's metrics namespace (stackMetricsNamespace): where its functions write. */
  metricsNamespace: string;
}

/**
 * The metrics a stack's functions write in embedded metric format, in the
 * stack's own namespace (stackMetricsNamespace), by their shared names: the
 * API's, or with `service` another function's.
 */
export class StackMetrics {
  constructor(readonly namespace: string) {}

  service(metricName: string, statistic = 'Sum', service: string = SERVICE_NAME): Metric {
    return new Metric({ namespace: this.namespace, metricName, dimensionsMap: { [DIMENSIONS.service]: service }, statistic, period: PERIOD });
  }

  /** A metric the ingest Lambda writes. */
  ingest(metricName: string, statistic = 'Sum'): Metric {
    return this.service(metricName, statistic, INGEST_SERVICE_NAME);
  }
}

/**
 * Percentage of requests that failed, counted only once at least
 * `minFailures` failed in the period: a single failure among three requests
 * at night is not an incident, while a total outage at low traffic still is.
 * FILL: an error count with no datapoint is zero, not missing.
 */
export function failureRate(failures: IMetric, requests: IMetric, minFailures: number, label: string, period: Duration = PERIOD): MathExpression {
  return new MathExpression({
    expression: `IF(FILL(failures, 0) >= ${minFailures}, 100 * FILL(failures, 0) / requests, 0)`,
    usingMetrics: { failures, requests },
    period,
    label,
  });
}

/**
 * The sum of counts that exist only when non-zero (a DynamoDB operation's
 * throttles, a resource's 429s). Each term is FILLed: a plain `a + b` has no
 * value when either term is missing, so it would never alarm on one alone.
 */
function filledSum(usingMetrics: Record<string, IMetric>, label: string): MathExpression {
  return new MathExpression({
    expression: Object.keys(usingMetrics)
      .map((id) => `FILL(${id}, 0)`)
      .join(' + '),
    usingMetrics,
    period: PERIOD,
    label,
  });
}

/** A DynamoDB per-operation metric (ThrottledRequests, SystemErrors) summed over the operations this service calls. */
export function tableOperationsSum(table: Table, metricName: string, operations: Operation[], label: string): MathExpression {
  const usingMetrics: Record<string, IMetric> = {};
  for (const operation of operations) {
    usingMetrics[`op_${operation.toLowerCase()}`] = table.metric(metricName, {
      dimensionsMap: { TableName: table.tableName, Operation: operation },
      statistic: 'Sum',
      period: PERIOD,
    });
  }
  return filledSum(usingMetrics, label);
}

/** The calls made on each table: the API, ingest and control-room functions, and the keys and reports commands. */
const CONTACTS_OPERATIONS = [Operation.GET_ITEM, Operation.UPDATE_ITEM, Operation.QUERY, Operation.TRANSACT_WRITE_ITEMS, Operation.BATCH_GET_ITEM];
const KEYS_OPERATIONS = [Operation.UPDATE_ITEM, Operation.PUT_ITEM, Operation.QUERY, Operation.BATCH_GET_ITEM];
const REPORTS_OPERATIONS = [Operation.PUT_ITEM, Operation.UPDATE_ITEM, Operation.QUERY, Operation.BATCH_GET_ITEM];
/** The notifier, the deliverer and the control room's alerts operations (a destination added or removed in a transaction). */
const ALERTS_OPERATIONS = [
  Operation.GET_ITEM,
  Operation.QUERY,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.DELETE_ITEM,
  Operation.TRANSACT_WRITE_ITEMS,
];

/**
 * The service's alarms and the SNS topic they notify (on ALARM and on OK).
 * Thresholds and why: see docs/runbook.md, which has a section per alarm.
 */
export class ServiceAlarms extends Construct {
  readonly topic: Topic;
  /** In the order the dashboard shows them. */
  readonly alarms: ServiceAlarm[];

  constructor(scope: Construct, id: string, props: ServiceAlarmsProps) {
    super(scope, id);
    const namePrefix = `${Stack.of(this).stackName}-`;
    this.topic = this.alarmTopic(namePrefix, props.alarmEmail);
    const metrics = new StackMetrics(props.metricsNamespace);
    const specs: AlarmSpec[] = [
      ...apiSpecs(props.stage, props.apiFunction, metrics),
      ...gatewayThrottleSpecs(metrics),
      ...functionSpecs('api', props.apiFunction, 'API', API_FUNCTION),
      ...functionSpecs('ingest', props.ingestFunction, 'ingest', INGEST_FUNCTION),
      secretKeySpec(metrics),
      ...functionSpecs('control-room', props.controlRoomFunction, 'control room', CONTROL_ROOM_FUNCTION),
      ...(props.sourceMapsFunction ? functionSpecs('sourcemaps', props.sourceMapsFunction, 'source maps', SOURCE_MAPS_FUNCTION) : []),
      ...tallySpecs(props.tallyFunction, props.tallyFailures),
      ...(props.alerts ? alertSpecs(props.alerts) : []),
      ...(props.hookFailures ? [hookFailureSpec(props.hookFailures)] : []),
      ...tableSpecs('contacts', props.contactsTable, CONTACTS_OPERATIONS),
      ...tableSpecs('keys', props.keysTable, KEYS_OPERATIONS),
      ...tableSpecs('reports', props.reportsTable, REPORTS_OPERATIONS),
      ...(props.alertsTable ? tableSpecs('alerts', props.alertsTable, ALERTS_OPERATIONS) : []),
    ];
    const action = new SnsAction(this.topic);
    this.alarms = specs.map((spec) => ({ spec, alarm: this.alarmOf(spec, namePrefix, action) }));
  }

  /**
   * The topic every alarm notifies. A topic policy replaces SNS's default
   * one, so it says explicitly that this account's alarms, and only those
   * named after this stack, may publish.
   */
  private alarmTopic(namePrefix: string, alarmEmail: string | undefined): Topic {
    const stack = Stack.of(this);
    const topic = new Topic(this, 'Topic', { displayName: `${stack.stackName} alarms`, enforceSSL: true });
    topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: { 'aws:SourceArn': `arn:${stack.partition}:cloudwatch:${stack.region}:${stack.account}:alarm:${namePrefix}*` },
        },
      }),
    );
    if (alarmEmail) {
      const subscription = topic.addSubscription(new EmailSubscription(alarmEmail));
      NagSuppressions.addResourceSuppressions(subscription, [
        {
          id: 'Serverless-SNSRedrivePolicy',
          reason:
            'An email subscription: SNS retries email delivery itself, and an alarm mail that never arrives is still an alarm in ALARM state on the dashboard and in the console. A dead-letter queue of undelivered alarm mails would be read by no one.',
        },
      ]);
    }
    return topic;
  }

  /** One alarm, named after the stack and linking its runbook section, notifying the topic when it fires and when it clears. */
  private alarmOf(spec: AlarmSpec, namePrefix: string, action: SnsAction): Alarm {
    const alarm = new Alarm(this, spec.slug, {
      alarmName: `${namePrefix}${spec.slug}`,
      alarmDescription: `${spec.meaning} Runbook: ${RUNBOOK}#${spec.slug}`,
      metric: spec.metric,
      threshold: spec.threshold,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: spec.evaluationPeriods,
      datapointsToAlarm: spec.datapointsToAlarm,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
    return alarm;
  }
}

/** The REST API's own answers: its 5xx rate (API Gateway), the 503s the API function counts, and the contacts function's latency. */
function apiSpecs(stage: Stage, apiFunction: IFunction, metrics: StackMetrics): AlarmSpec[] {
  const requests = stage.metricCount({ statistic: 'Sum', period: PERIOD });
  return [
    {
      slug: 'api-5xx-rate',
      meaning: 'At least 1% of API requests answered 5xx (with at least 5 of them) in 2 of the last 3 five-minute periods.',
      metric: failureRate(stage.metricServerError({ statistic: 'Sum', period: PERIOD }), requests, 5, '5xx, % of requests'),
      threshold: 1,
      datapointsToAlarm: 2,
      evaluationPeriods: 3,
    },
    {
      slug: 'api-503-rate',
      meaning: 'At least 1% of requests answered 503 (storage unavailable; at least 5 of them) in 2 of the last 3 five-minute periods.',
      metric: failureRate(metrics.service(METRIC.storageUnavailable), metrics.service(METRIC.requestsTotal), 5, '503, % of requests'),
      threshold: 1,
      datapointsToAlarm: 2,
      evaluationPeriods: 3,
    },
    {
      slug: 'api-latency-p99',
      // The contacts function's own duration: the stage's latency would also count source-map uploads, which take seconds by design.
      meaning: "The contacts API function's duration p99 at or above 2 s for 15 minutes: requests are waiting on retried DynamoDB calls or timeouts.",
      metric: apiFunction.metricDuration({ statistic: 'p99', period: PERIOD, label: 'contacts API duration p99 (ms)' }),
      threshold: 2000,
      datapointsToAlarm: 3,
      evaluationPeriods: 3,
    },
  ];
}

/** When each API's gateway throttle refuses requests (429 before any function): how many, and for how long, is an incident. */
const GATEWAY_THROTTLE_ALARMS: Record<ApiName, { slug: string; threshold: number; datapoints: number; periods: number; meaning: string }> = {
  contacts: {
    slug: 'api-gateway-429',
    threshold: 10,
    datapoints: 1,
    periods: 1,
    meaning:
      "The gateway refused 10 or more contacts API requests with 429 in 5 minutes: the API's own throttle (throttleRate) or the account's was reached, whatever the keys' limits.",
  },
  ingest: {
    slug: 'ingest-gateway-429',
    threshold: 100,
    datapoints: 2,
    periods: 3,
    meaning:
      "The gateway refused 100 or more ingest requests with 429 in 2 of the last 3 five-minute periods: a storm past the ingest API's own throttle (ingestThrottleRate); reports beyond it are refused, the contacts API is not affected.",
  },
  sourcemaps: {
    slug: 'sourcemaps-gateway-429',
    threshold: 10,
    datapoints: 1,
    periods: 1,
    meaning:
      "The gateway refused 10 or more source map upload requests with 429 in 5 minutes: CI uploads past the upload API's throttle (sourceMapsThrottleRate).",
  },
};

/** One API's gateway 429s: the access log's GatewayThrottled count summed over the API's resources (lib/route-throttles.ts). */
export function gateway429(metrics: StackMetrics, api: ApiName): MathExpression {
  const usingMetrics = Object.fromEntries(
    API_RESOURCES[api].map((resource, i) => [
      `${api}${i}`,
      new Metric({
        namespace: metrics.namespace,
        metricName: GATEWAY_THROTTLED_METRIC,
        dimensionsMap: { [GATEWAY_THROTTLED_DIMENSION]: resource },
        statistic: 'Sum',
        period: PERIOD,
      }),
    ]),
  );
  return filledSum(usingMetrics, `${api} API: 429 from the gateway`);
}

/** Each API's gateway 429s, alarmed apart. */
function gatewayThrottleSpecs(metrics: StackMetrics): AlarmSpec[] {
  return (Object.keys(GATEWAY_THROTTLE_ALARMS) as ApiName[]).map((api) => {
    const { slug, threshold, datapoints, periods, meaning } = GATEWAY_THROTTLE_ALARMS[api];
    return { slug, meaning, metric: gateway429(metrics, api), threshold, datapointsToAlarm: datapoints, evaluationPeriods: periods };
  });
}

/** What an HTTP function's errors and throttles alarms say of it. */
interface FunctionWords {
  /** The errors alarm's meaning. */
  errors: string;
  /** The throttles alarm's meaning. */
  throttles: string;
}

const API_FUNCTION: FunctionWords = {
  errors: 'The API Lambda failed 3 or more invocations in 5 minutes (crash, timeout or out of memory: the handler answers every handled error itself).',
  throttles: 'Lambda refused to run the API function (concurrency exhausted) at least once in 5 minutes: those requests failed.',
};
const INGEST_FUNCTION: FunctionWords = {
  errors:
    'The ingest Lambda (browser bug reports) failed 3 or more invocations in 5 minutes (crash, timeout or out of memory: the handler answers every handled error itself).',
  throttles: 'Lambda refused to run the ingest function (concurrency exhausted) at least once in 5 minutes: those reports were lost unless the page retries.',
};
const SOURCE_MAPS_FUNCTION: FunctionWords = {
  errors:
    'The source maps upload Lambda failed 3 or more invocations in 5 minutes (crash, timeout or out of memory: it answers every handled error itself); CI uploads failed with a 5xx.',
  throttles: 'Lambda refused to run the source maps upload function (concurrency exhausted) at least once in 5 minutes: those CI uploads failed.',
};
const CONTROL_ROOM_FUNCTION: FunctionWords = {
  errors: 'The control-room Lambda failed 3 or more invocations in 5 minutes (crash, timeout or out of memory: it answers bad requests itself).',
  throttles: 'Lambda refused to run the control-room function (concurrency exhausted) at least once in 5 minutes.',
};

/** A function's failed invocations (3 in 5 minutes) and throttles (1): `<slug>-function-errors`, `<slug>-function-throttles`. */
function functionSpecs(slug: string, fn: IFunction, label: string, words: FunctionWords): AlarmSpec[] {
  return [
    {
      slug: `${slug}-function-errors`,
      meaning: words.errors,
      metric: fn.metricErrors({ statistic: 'Sum', period: PERIOD, label: `${label} function errors` }),
      threshold: 3,
      datapointsToAlarm: 1,
      evaluationPeriods: 1,
    },
    {
      slug: `${slug}-function-throttles`,
      meaning: words.throttles,
      metric: fn.metricThrottles({ statistic: 'Sum', period: PERIOD, label: `${label} function throttles` }),
      threshold: 1,
      datapointsToAlarm: 1,
      evaluationPeriods: 1,
    },
  ];
}

/** A secret key sent where browsers call: it leaked. */
function secretKeySpec(metrics: StackMetrics): AlarmSpec {
  return {
    slug: 'secret-key-exposed',
    meaning: 'A secret key (dfsk_) was sent to the ingest API, where browsers call: it has leaked into a web page or a URL. Rotate it.',
    metric: metrics.ingest(METRIC.exposedSecretKeys).with({ label: 'secret key sightings' }),
    threshold: 1,
    datapointsToAlarm: 1,
    evaluationPeriods: 1,
  };
}

/** The tally on the reports table's stream: how far behind it is, its failed batches, and the batches it gave up. */
function tallySpecs(tally: IFunction, failures: IQueue): AlarmSpec[] {
  return [
    {
      slug: 'tally-behind',
      meaning:
        "The tally is 5 minutes or more behind the reports table's stream for 10 minutes: issue counts and event lists lag (events are stored; records an hour old are given up to the failure queue uncounted).",
      metric: new Metric({
        namespace: 'AWS/Lambda',
        metricName: 'IteratorAge',
        dimensionsMap: { FunctionName: tally.functionName },
        statistic: 'Maximum',
        period: PERIOD,
        label: 'tally iterator age (ms)',
      }),
      threshold: 300_000,
      datapointsToAlarm: 2,
      evaluationPeriods: 2,
    },
    {
      slug: 'tally-function-errors',
      meaning: 'The tally failed 3 or more batches in 5 minutes: they are retried (counted once when they pass), but counts lag while it fails.',
      metric: tally.metricErrors({ statistic: 'Sum', period: PERIOD, label: 'tally errors' }),
      threshold: 3,
      datapointsToAlarm: 1,
      evaluationPeriods: 1,
    },
    {
      slug: 'tally-batches-dropped',
      meaning:
        "Stream records failed the tally after it split their batch and tried them 5 times, or were an hour old: their place is in the tally's failure queue, and those stored events are missing from their issues' counts.",
      metric: failures.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period: PERIOD, label: 'tally batches dropped' }),
      threshold: 1,
      datapointsToAlarm: 1,
      evaluationPeriods: 1,
    },
  ];
}

/** Throttled requests and DynamoDB-side errors of one table. */
function tableSpecs(name: string, table: Table, operations: Operation[]): AlarmSpec[] {
  return [
    {
      slug: `${name}-table-throttles`,
      meaning: `10 or more requests to the ${name} table were throttled in 5 minutes (the SDK retries them; sustained, they become 503s).`,
      metric: tableOperationsSum(table, 'ThrottledRequests', operations, `${name} table throttled requests`),
      threshold: 10,
      datapointsToAlarm: 1,
      evaluationPeriods: 1,
    },
    {
      slug: `${name}-table-system-errors`,
      meaning: `DynamoDB answered 5 or more requests to the ${name} table with a server error in 5 minutes.`,
      metric: tableOperationsSum(table, 'SystemErrors', operations, `${name} table system errors`),
      threshold: 5,
      datapointsToAlarm: 1,
      evaluationPeriods: 1,
    },
  ];
}

/** What the alert alarms watch of lib/alerts.ts's construct (its shape, not its type: that file imports this one through lib/gradual-deployment.ts). */
export interface AlertParts {
  notifier: IFunction;
  deliverer: IFunction;
  deliveryQueue: IQueue;
  streamFailures: IQueue;
  deliveryDeadLetters: IQueue;
}

/** Alerts that were not sent: stream records the notifier gave up on, deliveries whose messages kept failing, and the functions' own failures. */
function alertSpecs(alerts: AlertParts): AlarmSpec[] {
  const waiting = (queue: IQueue, label: string) => queue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period: PERIOD, label });
  return [
    {
      slug: 'alert-stream-failures',
      meaning:
        'The notifier gave up on stream records of issue items after its retries (they are in the stream-failures queue): alerts of those writes were not sent.',
      metric: waiting(alerts.streamFailures, 'stream records given up'),
      threshold: 1,
      datapointsToAlarm: 1,
      evaluationPeriods: 1,
    },
    {
      slug: 'alert-delivery-dead-letters',
      meaning:
        "Webhook delivery messages failed 5 times (storage trouble or crashes, not a receiver's answer) and went to the dead-letter queue: those deliveries wait, pending.",
      metric: waiting(alerts.deliveryDeadLetters, 'delivery messages given up'),
      threshold: 1,
      datapointsToAlarm: 1,
      evaluationPeriods: 1,
    },
    {
      slug: 'alert-notifier-errors',
      meaning: 'The alert notifier failed 3 or more invocations in 5 minutes (crash, timeout or out of memory): the stream waits and retries.',
      metric: alerts.notifier.metricErrors({ statistic: 'Sum', period: PERIOD, label: 'notifier errors' }),
      threshold: 3,
      datapointsToAlarm: 1,
      evaluationPeriods: 1,
    },
    {
      slug: 'alert-deliverer-errors',
      meaning: 'The alert deliverer failed 3 or more invocations in 5 minutes (crash, timeout or out of memory): the queue gives the messages again.',
      metric: alerts.deliverer.metricErrors({ statistic: 'Sum', period: PERIOD, label: 'deliverer errors' }),
      threshold: 3,
      datapointsToAlarm: 1,
      evaluationPeriods: 1,
    },
  ];
}

/**
 * A deployment hook that failed before it reported: its failure destination was invoked (and reported Failed for
 * it, so the release rolled back), or the destination itself failed (then CodeDeploy waits out the hook's hour).
 */
function hookFailureSpec(reporter: IFunction): AlarmSpec {
  return {
    slug: 'release-hook-failed',
    meaning:
      'A pre- or post-traffic hook failed before it reported to CodeDeploy (its bundle, memory or timeout): its release was reported Failed and rolled back, unless the reporter failed too.',
    metric: new MathExpression({
      expression: 'FILL(failed, 0) + FILL(reporterErrors, 0)',
      usingMetrics: {
        failed: reporter.metricInvocations({ statistic: 'Sum', period: PERIOD }),
        reporterErrors: reporter.metricErrors({ statistic: 'Sum', period: PERIOD }),
      },
      period: PERIOD,
      label: 'hooks failed before reporting',
    }),
    threshold: 1,
    datapointsToAlarm: 1,
    evaluationPeriods: 1,
  };
}
