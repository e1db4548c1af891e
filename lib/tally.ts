import { Duration } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { COMPANY_PAIR_PREFIX, PERSON_PAIR_PREFIX } from '../lambda/infrastructure/store/schema';
import { TALLY_RECORD_FILTER } from '../lambda/infrastructure/store/reports/stream-records';
import { SESSION_RECORD_FILTER } from '../lambda/infrastructure/store/reports/session-records';
import { TALLY_SERVICE_NAME } from '../lambda/infrastructure/observability/names';
import { grantTableCalls, grantTableCallsOnKeys } from './grants';
import type { GradualDeployment } from './gradual-deployment';
import { tallyProbes } from './pre-traffic-probes';
import { releasedFunction, type ReleaseSettings } from './released-function';
import type { ServiceFunction } from './service-function';
import { STREAM_FAILURES } from './stream-failures';

export interface TallyProps {
  reportsTable: Table;
  /** Where a person newly counted into an issue is looked up, once (docs/report-issues.md#who-is-affected). */
  contactsTable: Table;
  release: ReleaseSettings;
}

/**
 * Stream batching as Lambda reads the reports table's stream for the tally
 * (docs/report-issues.md#exact-counts, docs/capacity.md): at most one
 * invocation a second per shard while events trickle in, so an issue item is
 * written about once a second per shard whatever the rate of events.
 */
export const TALLY_STREAM = {
  batchSize: 1000,
  maxBatchingWindowSeconds: 1,
  /**
   * The tally keeps no window state: the tumbling window is there because its
   * events name the stream shard their records come from, which the tally's
   * marks are kept per (lambda/ingest/tally/tally.ts).
   */
  tumblingWindowSeconds: 60,
} as const;

/**
 * The tally (docs/report-issues.md#exact-counts): a function on the reports
 * table's stream that counts newly stored events into their issues and lists
 * them on feed pages, once per batch, so that no item or index partition is
 * written once per event (docs/capacity.md). Only INSERTs of event items
 * reach it (the mapping's filter, the same as lambda/infrastructure/store/reports/stream-records.ts),
 * and limiter items written with the sessions a request carried (docs/release-health.md), never its own writes. One batch per shard at a time (parallelization 1),
 * in order. A record it cannot count is set aside by its code, never thrown
 * on; a batch that fails anyway is split down to the record that fails, tried
 * a few times and given up, its place sent to a queue that alarms
 * (./stream-failures.ts): no record holds its shard for more than minutes.
 * Least privilege: PutItem, UpdateItem, GetItem and BatchGetItem on the reports table, DeleteItem there only on
 * (issue, person) and (issue, company) pairs, GetItem on the contacts table (a newly counted person's company),
 * nothing else.
 */
export class Tally extends Construct {
  readonly handler: ServiceFunction;
  readonly deployment: GradualDeployment;
  /** Where a batch that could not be tallied is described (shard and sequence numbers). */
  readonly failures: Queue;

  constructor(scope: Construct, id: string, props: TallyProps) {
    super(scope, id);
    // Released as every function is: a version behind `live`, a canary, alarms and a pre-traffic check (lib/released-function.ts).
    ({ handler: this.handler, deployment: this.deployment } = releasedFunction(this, 'Handler', {
      settings: props.release,
      description: 'Contacts tally: counts stored bug-report events into their issues, from the reports table stream',
      entry: 'ingest/tally/tally-entry.ts',
      timeout: Duration.seconds(60),
      memorySize: 512,
      environment: { REPORTS_TABLE_NAME: props.reportsTable.tableName, CONTACTS_TABLE_NAME: props.contactsTable.tableName },
      service: TALLY_SERVICE_NAME,
      deploymentId: 'Deployment',
      // A full batch of 1,000 records takes a second or two; ten means something is wrong. A failed batch
      // throws (Lambda's Errors): it answers no failed items, so it needs no failed-items alarm.
      release: { name: 'tally', probes: tallyProbes, p99DurationMs: 10_000, consumer: true },
    }));
    // GetItem: a release's users' sketches, read before they are merged (docs/release-health.md).
    // BatchGetItem: the check of a batch's people against their events' items as stored now (an erasure may have
    // stripped them since: lambda/ingest/tally/count-people.ts); DeleteItem only on the (issue, person) and (issue,
    // company) pairs, which that check takes back.
    grantTableCalls(props.reportsTable, this.handler, 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:GetItem', 'dynamodb:BatchGetItem');
    for (const pairs of [PERSON_PAIR_PREFIX, COMPANY_PAIR_PREFIX]) grantTableCallsOnKeys(props.reportsTable, this.handler, `${pairs}*`, 'dynamodb:DeleteItem');
    grantTableCalls(props.contactsTable, this.handler, 'dynamodb:GetItem');

    this.failures = new Queue(this, 'Failures', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    // On the alias, never the function: a mapping on the function would run $LATEST, past the canary and the rollback.
    this.deployment.alias.addEventSource(
      new DynamoEventSource(props.reportsTable, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: TALLY_STREAM.batchSize,
        maxBatchingWindow: Duration.seconds(TALLY_STREAM.maxBatchingWindowSeconds),
        tumblingWindow: Duration.seconds(TALLY_STREAM.tumblingWindowSeconds),
        parallelizationFactor: 1,
        // A failed batch is counted again whole or cut elsewhere: the marks count every record once either way.
        bisectBatchOnError: STREAM_FAILURES.bisect,
        retryAttempts: STREAM_FAILURES.retryAttempts,
        maxRecordAge: Duration.seconds(STREAM_FAILURES.maxRecordAgeSeconds),
        reportBatchItemFailures: false,
        onFailure: new SqsDlq(this.failures),
        filters: [
          FilterCriteria.filter({
            eventName: FilterRule.isEqual(TALLY_RECORD_FILTER.eventName),
            dynamodb: { Keys: { pk: { S: FilterRule.beginsWith(TALLY_RECORD_FILTER.keyPrefix) } } },
          }),
          // Sessions (docs/release-health.md): limiter items written with the sessions a request carried.
          FilterCriteria.filter({
            eventName: FilterRule.or(...SESSION_RECORD_FILTER.eventNames),
            dynamodb: {
              Keys: { pk: { S: FilterRule.beginsWith(SESSION_RECORD_FILTER.keyPrefix) } },
              NewImage: { [SESSION_RECORD_FILTER.attribute]: { S: FilterRule.exists() } },
            },
          }),
        ],
      }),
    );

    // The role's policy as the event source wrote it (the mapping's grants land in the role's default policy).
    const policy = this.handler.role?.node.tryFindChild('DefaultPolicy');
    NagSuppressions.addResourceSuppressions(policy ?? this.handler, [
      {
        id: 'AwsSolutions-IAM5',
        reason:
          'dynamodb:ListStreams on "*" is what Lambda\'s event source mapping needs to find the stream, and ListStreams takes no resource ARN; every other call is on the reports table, its stream, the failure queue or the function\'s own log group.',
        appliesTo: ['Resource::*'],
      },
    ]);
    const isItselfTheDestination =
      "This queue is itself the failure destination of the tally's event source mapping: it holds the place of batches that could not be tallied (alarmed: tally-batches-dropped), and nothing consumes it that could fail, so it needs no dead-letter queue of its own.";
    NagSuppressions.addResourceSuppressions(this.failures, [
      { id: 'AwsSolutions-SQS3', reason: isItselfTheDestination },
      { id: 'Serverless-SQSRedrivePolicy', reason: isItselfTheDestination },
    ]);
  }
}
