import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import type { JsonLogger } from '../observability/logger';
import { issueSnapshotOf } from './issue-image';
import { FactoryLookups, notifyIssueChange, type NotifierDependencies } from './notify';

/** Turns a stream record into its two images (the unmarshalling lives with the store: lambda/store/reports/stream-images.ts). */
export type ImagesOf = (record: DynamoDBStreamEvent['Records'][number]) => { before?: Record<string, unknown>; after?: Record<string, unknown> };

/**
 * The notifier: a consumer of the reports table's stream (docs/alerts.md).
 * Records of issue items become alerts (./triggers.ts), each sent on its
 * way once (./notify.ts); other items are passed over. Records are taken
 * in order; on a failure the batch answers the failed record's sequence
 * number, so Lambda (or `npm start`'s poller) retries from that record on,
 * and what the records before it did is not repeated, which would be
 * harmless anyway: a record seen again alerts nothing new.
 */
export function createNotifierHandler(deps: NotifierDependencies, imagesOf: ImagesOf, logger: JsonLogger) {
  return async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    const lookups = new FactoryLookups(deps.store);
    let alerts = 0;
    for (const record of event.Records) {
      try {
        const { before, after } = imagesOf(record);
        const stored = await notifyIssueChange({ before: issueSnapshotOf(before), after: issueSnapshotOf(after) }, deps, lookups);
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
