import { Duration, Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { AlarmStatusWidget, AlarmWidget, Dashboard, GraphWidget, MathExpression, TextWidget, type IWidget } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { DELIVERER_SERVICE_NAME, DIMENSIONS, METRIC, NOTIFIER_SERVICE_NAME, SOURCEMAPS_SERVICE_NAME } from '../lambda/infrastructure/observability/names';
import { gateway429, RUNBOOK, StackMetrics, type AlertParts, type ServiceAlarm } from './alarms';
import { API_RESOURCES, type ApiName } from './route-throttles';

export interface ServiceDashboardProps {
  stage: Stage;
  apiFunction: IFunction;
  ingestFunction: IFunction;
  controlRoomFunction: IFunction;
  /** The rows after the ingest API's: source map uploads, the tally, issue alerts. */
  sourceMapsFunction: IFunction;
  tallyFunction: IFunction;
  alerts: AlertParts;
  /** Shown first, each as a graph with its threshold. */
  alarms: ServiceAlarm[];
  /** The stack's metrics namespace (stackMetricsNamespace). */
  metricsNamespace: string;
}

const PERIOD = Duration.minutes(5);
const ROW = 24;

/** Lays widgets out left to right, `perRow` to a row. */
function rows(widgets: IWidget[], perRow: number): IWidget[][] {
  const out: IWidget[][] = [];
  for (let start = 0; start < widgets.length; start += perRow) out.push(widgets.slice(start, start + perRow));
  return out;
}

/**
 * One dashboard per stack: the alarms' state, each alarm's metric against its
 * threshold, then the traffic and the service's own metrics around them.
 */
export class ServiceDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: ServiceDashboardProps) {
    super(scope, id);
    const { stage, apiFunction, ingestFunction, controlRoomFunction } = props;
    const metrics = new StackMetrics(props.metricsNamespace);
    const serviceMetric = (metricName: string, statistic?: string) => metrics.service(metricName, statistic);
    const ingestMetric = (metricName: string) => metrics.ingest(metricName);
    const name = Stack.of(this).stackName;
    this.dashboard = new Dashboard(this, 'Dashboard', { dashboardName: name, defaultInterval: Duration.hours(12) });

    const third = ROW / 3;
    const alarmGraphs = props.alarms.map(({ spec, alarm }) => new AlarmWidget({ alarm, title: spec.slug, width: third, height: 6 }));

    const context: IWidget[] = [
      new GraphWidget({
        title: 'Requests and answers (API Gateway)',
        width: third,
        left: [
          stage.metricCount({ statistic: 'Sum', period: PERIOD, label: 'requests' }),
          stage.metricClientError({ statistic: 'Sum', period: PERIOD, label: '4xx' }),
          stage.metricServerError({ statistic: 'Sum', period: PERIOD, label: '5xx' }),
        ],
      }),
      new GraphWidget({
        title: 'Answers by route and status class',
        width: third,
        left: [
          new MathExpression({
            expression: `SEARCH('{${props.metricsNamespace},${DIMENSIONS.service},${DIMENSIONS.route},${DIMENSIONS.statusClass}} MetricName="${METRIC.requests}"', 'Sum', ${PERIOD.toSeconds()})`,
            usingMetrics: {},
            label: '',
            period: PERIOD,
          }),
        ],
      }),
      new GraphWidget({
        title: 'Latency (API Gateway, ms)',
        width: third,
        left: ['p50', 'p90', 'p99'].map((statistic) => stage.metricLatency({ statistic, period: PERIOD, label: statistic })),
      }),
      new GraphWidget({
        title: 'Rate limited (429) and contacts written',
        width: third,
        left: [
          serviceMetric(METRIC.rateLimited).with({ label: '429 answers' }),
          serviceMetric(METRIC.contactsCreated).with({ label: 'contacts created' }),
          serviceMetric(METRIC.contactsUpdated).with({ label: 'contacts updated' }),
        ],
      }),
      new GraphWidget({
        title: 'DynamoDB per call (ms) and calls per request',
        width: third,
        left: ['p50', 'p99'].map((statistic) => serviceMetric(METRIC.dynamoLatency, statistic).with({ label: `call ${statistic}` })),
        right: [serviceMetric(METRIC.dynamoCalls, 'Average').with({ label: 'calls per request' })],
      }),
      new GraphWidget({
        title: 'Lambda duration p99 (ms) and concurrency',
        width: third,
        left: [
          apiFunction.metricDuration({ statistic: 'p99', period: PERIOD, label: 'API p99' }),
          controlRoomFunction.metricDuration({ statistic: 'p99', period: PERIOD, label: 'control room p99' }),
        ],
        right: [
          apiFunction.metric('ConcurrentExecutions', { statistic: 'Maximum', period: PERIOD, label: 'API concurrency' }),
          controlRoomFunction.metric('ConcurrentExecutions', { statistic: 'Maximum', period: PERIOD, label: 'control room concurrency' }),
        ],
      }),
    ];

    // The ingest API (browser bug reports): what arrived, what was refused, and its function.
    const ingest: IWidget[] = [
      new GraphWidget({
        title: 'Ingest: events and feature requests',
        width: third,
        left: [
          ingestMetric(METRIC.eventsAccepted).with({ label: 'events accepted' }),
          ingestMetric(METRIC.eventsDuplicate).with({ label: 'duplicates (retries)' }),
          ingestMetric(METRIC.eventsRejected).with({ label: 'events rejected (422)' }),
          ingestMetric(METRIC.featureRequestsCreated).with({ label: 'feature requests' }),
        ],
      }),
      new GraphWidget({
        title: 'Ingest: refused origins, 429s and exposed secret keys',
        width: third,
        left: [
          ingestMetric(METRIC.originsRefused).with({ label: 'origins refused (403)' }),
          ingestMetric(METRIC.rateLimited).with({ label: '429 answers' }),
          ingestMetric(METRIC.storageUnavailable).with({ label: '503 answers' }),
        ],
        right: [ingestMetric(METRIC.exposedSecretKeys).with({ label: 'secret key sightings' })],
      }),
      new GraphWidget({
        title: 'Ingest function: duration p99 (ms), errors and concurrency',
        width: third,
        left: [ingestFunction.metricDuration({ statistic: 'p99', period: PERIOD, label: 'ingest p99' })],
        right: [
          ingestFunction.metricErrors({ statistic: 'Sum', period: PERIOD, label: 'errors' }),
          ingestFunction.metric('ConcurrentExecutions', { statistic: 'Maximum', period: PERIOD, label: 'concurrency' }),
        ],
      }),
    ];

    // Each API's own 429s at the gateway (its route throttle), beside the functions' own (a key's limit).
    const gateway = new GraphWidget({
      title: 'Each API: 429 from the gateway (its own throttle)',
      width: third,
      left: (Object.keys(API_RESOURCES) as ApiName[]).map((api) => gateway429(metrics, api)),
    });

    // Source map uploads (CI), the tally and issue alerts: the rows the runbook's sections for them point to.
    const { tallyFunction, sourceMapsFunction, alerts } = props;
    const fnMetric = (fn: IFunction, metricName: string, statistic: string, label: string) => fn.metric(metricName, { statistic, period: PERIOD, label });
    const own = (service: string, metricName: string, label: string) => metrics.service(metricName, 'Sum', service).with({ label });
    const later: IWidget[] = [
      new GraphWidget({
        title: 'Source maps: uploads, 5xx and duration p99 (ms)',
        width: third,
        left: [own(SOURCEMAPS_SERVICE_NAME, METRIC.requestsTotal, 'requests'), own(SOURCEMAPS_SERVICE_NAME, METRIC.serverErrors, '5xx')],
        right: [fnMetric(sourceMapsFunction, 'Duration', 'p99', 'duration p99')],
      }),
      new GraphWidget({
        title: 'Tally: how far behind the stream (ms), batches and errors',
        width: third,
        left: [fnMetric(tallyFunction, 'IteratorAge', 'Maximum', 'iterator age')],
        right: [fnMetric(tallyFunction, 'Invocations', 'Sum', 'batches'), fnMetric(tallyFunction, 'Errors', 'Sum', 'failed batches')],
      }),
      new GraphWidget({
        title: 'Alerts: items and failed items, queue waiting, errors',
        width: third,
        left: [
          own(NOTIFIER_SERVICE_NAME, METRIC.batchItems, 'notifier: issue changes'),
          own(NOTIFIER_SERVICE_NAME, METRIC.failedBatchItems, 'notifier: failed'),
          own(DELIVERER_SERVICE_NAME, METRIC.batchItems, 'deliverer: deliveries'),
          own(DELIVERER_SERVICE_NAME, METRIC.failedBatchItems, 'deliverer: failed'),
        ],
        right: [
          alerts.deliveryQueue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period: PERIOD, label: 'deliveries waiting' }),
          fnMetric(alerts.notifier, 'Errors', 'Sum', 'notifier errors'),
          fnMetric(alerts.deliverer, 'Errors', 'Sum', 'deliverer errors'),
        ],
      }),
    ];

    this.dashboard.addWidgets(
      new TextWidget({
        markdown: `# Contacts service: ${name}\nEach alarm is explained, with what to do, in \`${RUNBOOK}\` (section = alarm name after \`${name}-\`).`,
        width: ROW,
        height: 2,
      }),
    );
    this.dashboard.addWidgets(new AlarmStatusWidget({ title: 'Alarms', alarms: props.alarms.map(({ alarm }) => alarm), width: ROW, height: 4 }));
    for (const row of rows(alarmGraphs, 3)) this.dashboard.addWidgets(...row);
    for (const row of rows(context, 3)) this.dashboard.addWidgets(...row);
    this.dashboard.addWidgets(...ingest);
    this.dashboard.addWidgets(gateway, ...later.slice(0, 2));
    this.dashboard.addWidgets(...later.slice(2));
  }
}
