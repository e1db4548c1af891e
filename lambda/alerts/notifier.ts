import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import type { JsonLogger } from '../infrastructure/observability/logger';
import { FactoryLookups, notifyIssueChange, type IssueChange, type NotifierDependencies } from './notify';

/** Reads a stream record as the write of an issue it shows (the store's reading: lambda/infrastructure/store/reports/stream-images.ts). */
export type IssueChangeOf = (record: DynamoDBStreamEvent['Records'][number]) => IssueChange;

/**
 * The notifier: a consumer of the reports table's stream (docs/alerts.md).
 * Records of issue items become alerts (./triggers.ts), each sent on its
 * way once (./notify.ts); other items are passed over. Records are taken
 * in order; on a failure the batch answers the failed record's sequence
 * number, so Lambda (or `npm start`'s poller) retries from that record on,
 * and what the records before it did is not repeated, which would be
 * harmless anyway: a record seen again alerts nothing new.
 */
export function createNotifierHandler(deps: NotifierDependencies, issueChangeOf: IssueChangeOf, logger: JsonLogger) {
  return async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    const lookups = new FactoryLookups(deps.store);
    let alerts = 0;
    for (const record of event.Records) {
      try {
        const stored = await notifyIssueChange(issueChangeOf(record), deps, lookups);
        alerts += stored.length;
        for (const alertId of stored) logger.info('alert', { alertId, eventId: record.eventID });
      } catch (error) {
        logger.error('alert failed: the batch is retried from this record', {
          eventId: record.eventID,
          errorClass: error instanceof Error ? error.name : typeof error,
          error: error instanceof Error ? error.message : String(error),
        });
        return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? record.eventID ?? '' }] };
      }
    }
    logger.debug('stream batch', { records: event.Records.length, alerts });
    return { batchItemFailures: [] };
  };
}
