import { Duration } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { DELIVERER_SERVICE_NAME, NOTIFIER_SERVICE_NAME } from '../lambda/infrastructure/observability/names';
import { REPORTS_BY_FEED } from '../lambda/infrastructure/store/schema';
import { RELEASE_HOUR_PREFIX } from '../lambda/infrastructure/store/reports/release-items';
import { grantIndexCalls, grantTableCalls } from './grants';
import type { GradualDeployment } from './gradual-deployment';
import { delivererProbes, notifierProbes } from './pre-traffic-probes';
import { CanaryReceiver } from './canary-receiver';
import { releasedFunction, type ReleaseSettings } from './released-function';
import type { ServiceFunction } from './service-function';
import { STREAM_FAILURES } from './stream-failures';

export interface AlertsProps {
  /** Its stream (new and old images) feeds the notifier: issue items only, by a filter. */
  reportsTable: Table;
  alertsTable: Table;
  /** Subscribed to the platform team's alert topic (SNS asks each address to confirm). */
  alertEmails: string[];
  /** Where payload links point: the control room's web app. */
  linkBase: string;
  release: ReleaseSettings;
}

/** The deliverer's timeout: a batch's POSTs run side by side, 5 s each at most, with their writes. */
const DELIVERER_TIMEOUT = Duration.seconds(30);

/**
 * Issue alerts (docs/alerts.md): the notifier on the reports table's stream
 * (issue items only), the delivery queue and the deliverer behind it, their
 * failure queues, and the platform team's topic. Its own file, so the
 * functions can be given versions and aliases like the others in one line.
 *
 * Retries: the delivery queue with a delay per message (SQS: at most 15
 * minutes a hop; a longer wait arrives early and is queued again for the
 * rest) rather than a scheduled function polling for due deliveries (a
 * minute's granularity at best, against a first retry due within 10 s, and
 * a poll running whether or not anything is due) or a schedule per retry
 * (EventBridge Scheduler: a resource created and deleted per attempt).
 */
export class Alerts extends Construct {
  readonly notifier: ServiceFunction;
  readonly deliverer: ServiceFunction;
  readonly notifierDeployment: GradualDeployment;
  readonly delivererDeployment: GradualDeployment;
  readonly deliveryQueue: Queue;
  /** Delivery messages that failed 5 times (storage trouble, a crash): their deliveries stay pending in the table. */
  readonly deliveryDeadLetters: Queue;
  /** Stream batches the notifier could not handle after its retries: the notifier's failure destination. */
  readonly streamFailures: Queue;
  /** The platform team's topic: every alert of every factory. */
  readonly topic: Topic;
  /** The webhook destination of the deliverer's pre-traffic probe (lib/canary-receiver.ts). */
  readonly canaryReceiver: CanaryReceiver;

  constructor(scope: Construct, id: string, props: AlertsProps) {
    super(scope, id);
    const queueDefaults = { enforceSSL: true, encryption: QueueEncryption.SQS_MANAGED };

    this.topic = new Topic(this, 'AlertTopic', { displayName: 'Contacts service: issue alerts', enforceSSL: true });
    for (const email of props.alertEmails) this.topic.addSubscription(new EmailSubscription(email));

    this.streamFailures = new Queue(this, 'StreamFailures', { ...queueDefaults, retentionPeriod: Duration.days(14) });
    this.deliveryDeadLetters = new Queue(this, 'DeliveryDeadLetters', { ...queueDefaults, retentionPeriod: Duration.days(14) });
    this.deliveryQueue = new Queue(this, 'DeliveryQueue', {
      ...queueDefaults,
      // AWS's advice for a Lambda source: at least six times the function's timeout.
      visibilityTimeout: Duration.seconds(DELIVERER_TIMEOUT.toSeconds() * 6),
      retentionPeriod: Duration.days(2),
      deadLetterQueue: { queue: this.deliveryDeadLetters, maxReceiveCount: 5 },
    });
    const endOfTheLine = (what: string) =>
      `This queue is itself where failures end: ${what}, which an alarm watches. A dead-letter queue of its own would only move the same messages once more.`;
    for (const [queue, what] of [
      [this.streamFailures, "the notifier's failure destination"],
      [this.deliveryDeadLetters, "the delivery queue's dead letters"],
    ] as const) {
      NagSuppressions.addResourceSuppressions(queue, [
        // AwsSolutions-SQS3 passes a queue that is another's dead-letter queue by itself.
        ...(queue === this.streamFailures ? [{ id: 'AwsSolutions-SQS3', reason: endOfTheLine(what) }] : []),
        { id: 'Serverless-SQSRedrivePolicy', reason: endOfTheLine(what) },
      ]);
    }

    const environment = {
      ALERTS_TABLE_NAME: props.alertsTable.tableName,
      REPORTS_TABLE_NAME: props.reportsTable.tableName,
      DELIVERY_QUEUE_URL: this.deliveryQueue.queueUrl,
      ALERT_LINK_BASE: props.linkBase,
    };
    // Released as every function is (lib/released-function.ts); the stream is read through the alias, never $LATEST.
    ({ handler: this.notifier, deployment: this.notifierDeployment } = releasedFunction(this, 'Notifier', {
      settings: props.release,
      description: 'Contacts alert notifier: issue alerts from the reports table stream (new, regressed, spike)',
      entry: 'alerts/notifier-entry.ts',
      timeout: Duration.seconds(60),
      memorySize: 512,
      environment: { ...environment, ALERT_TOPIC_ARN: this.topic.topicArn },
      service: NOTIFIER_SERVICE_NAME,
      release: {
        name: 'alert-notifier',
        probes: notifierProbes,
        // A batch of 100 issue changes with a few alerts each: seconds. Ten means something is wrong.
        p99DurationMs: 10_000,
        ownMetrics: 'batch-items',
        consumer: true,
      },
    }));
    this.notifierDeployment.alias.addEventSource(
      new DynamoEventSource(props.reportsTable, {
        startingPosition: StartingPosition.LATEST,
        batchSize: 100,
        maxBatchingWindow: Duration.seconds(1),
        // What keeps failing is given up within minutes, as the tally's is (./stream-failures.ts).
        bisectBatchOnError: STREAM_FAILURES.bisect,
        reportBatchItemFailures: true,
        retryAttempts: STREAM_FAILURES.retryAttempts,
        maxRecordAge: Duration.seconds(STREAM_FAILURES.maxRecordAgeSeconds),
        onFailure: new SqsDlq(this.streamFailures),
        // Writes of issue items and of release hours' counters (release alerts) only: events, feature requests and
        // limiters never wake the notifier.
        filters: [
          FilterCriteria.filter({
            eventName: FilterRule.or('INSERT', 'MODIFY'),
            dynamodb: { Keys: { pk: { S: [{ prefix: 'issue#' }, { prefix: RELEASE_HOUR_PREFIX }] } } },
          }),
        ],
      }),
    );

    this.canaryReceiver = new CanaryReceiver(this, 'CanaryReceiver', {
      logLevel: props.release.logLevel,
      logRetention: props.release.logRetention,
      logRemovalPolicy: props.release.logRemovalPolicy,
    });
    ({ handler: this.deliverer, deployment: this.delivererDeployment } = releasedFunction(this, 'Deliverer', {
      settings: props.release,
      description: 'Contacts alert deliverer: signed webhook POSTs with retries, from the delivery queue',
      entry: 'alerts/deliverer-entry.ts',
      timeout: DELIVERER_TIMEOUT,
      memorySize: 256,
      // Its pre-traffic probe's destination: one signed delivery, as to a customer's receiver.
      environment: { ...environment, CANARY_RECEIVER_URL: this.canaryReceiver.url.url, CANARY_WEBHOOK_SECRET: this.canaryReceiver.secret },
      service: DELIVERER_SERVICE_NAME,
      release: {
        name: 'alert-deliverer',
        probes: delivererProbes,
        // Five POSTs side by side, 5 s each at most, with their writes.
        p99DurationMs: 15_000,
        ownMetrics: 'batch-items',
        consumer: true,
      },
    }));
    // A few at a time: a receiver that is down for a while is not hammered by every pending retry at once.
    this.delivererDeployment.alias.addEventSource(new SqsEventSource(this.deliveryQueue, { batchSize: 5, reportBatchItemFailures: true, maxConcurrency: 5 }));
    const sqsMapping = this.delivererDeployment.alias.node.children.find((child) => child.node.id.startsWith('SqsEventSource:'));
    NagSuppressions.addResourceSuppressions(
      sqsMapping ?? this.delivererDeployment.alias,
      [
        {
          id: 'Serverless-LambdaEventSourceMappingDestination',
          reason:
            "An SQS event source keeps failed messages on its queue; after 5 receives the queue's own redrive policy moves them to the dead-letter queue (alarmed: alert-delivery-dead-letters). Event source mappings take an on-failure destination only for streams and Kafka.",
        },
      ],
      true,
    );

    // Least privilege. The notifier: settings and destinations (GetItem, Query), the alert and its deliveries
    // (PutItem, UpdateItem); the delivery queue (SendMessage) and the topic (Publish). The stream's read is
    // granted by its event source. The deliverer: a delivery and its destination (GetItem), the attempt's
    // writes (UpdateItem); the delivery queue for the next attempt (SendMessage; receiving and deleting is the event source's).
    grantTableCalls(props.alertsTable, this.notifier, 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem');
    // Who an alert's issue affects (docs/alerts.md#the-payload): its people's entries in byFeed, then the pairs.
    grantIndexCalls(props.reportsTable, REPORTS_BY_FEED.indexName, this.notifier, 'dynamodb:Query');
    grantTableCalls(props.reportsTable, this.notifier, 'dynamodb:BatchGetItem');
    this.deliveryQueue.grantSendMessages(this.notifier);
    this.topic.grantPublish(this.notifier);
    grantTableCalls(props.alertsTable, this.deliverer, 'dynamodb:GetItem', 'dynamodb:UpdateItem');
    this.deliveryQueue.grantSendMessages(this.deliverer);
    NagSuppressions.addResourceSuppressions(
      this.notifier.role?.node.findChild('DefaultPolicy') as Construct,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'dynamodb:ListStreams, which the stream event source grants, has no resource-level permissions: IAM only takes "*" for it. Every other action of this role names its table, stream, queue or topic.',
          appliesTo: ['Resource::*'],
        },
      ],
      false,
    );
  }
}
