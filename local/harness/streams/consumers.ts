import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { TableNames } from '../../../lambda/infrastructure/store/schema';
import { insertedEvents, isTalliedRecord } from '../../../lambda/infrastructure/store/reports/stream-records';
import { DynamoTallyStore } from '../../../lambda/infrastructure/store/reports/tally-writes';
import { DynamoReleaseStore } from '../../../lambda/infrastructure/store/reports/release-writes';
import { RELEASE_HOUR_PREFIX } from '../../../lambda/infrastructure/store/reports/release-items';
import { discardCounts, isSessionRecord, sessionCounts } from '../../../lambda/infrastructure/store/reports/session-records';
import { createTallyHandler } from '../../../lambda/ingest/tally/tally';
import type { LocalStreamEvent, StreamConsumer } from './stream-consumer';

/** A consumer's handler as its Lambda entry exports it (the source's, or a bundled asset's). */
export type StreamHandler = (event: LocalStreamEvent) => Promise<unknown>;

/**
 * The consumers of the reports table's stream on one machine: the same
 * handlers, with the same record filters, as the stack's event source
 * mappings (lib/tally.ts). `handlers.tally`, when given, is the tally's
 * Lambda entry itself (`npm start -- --bundle`: the asset `cdk deploy` uploads).
 */
export function reportStreamConsumers(
  doc: DynamoDBDocumentClient,
  tables: Pick<TableNames, 'reports' | 'contacts'>,
  handlers: { tally?: StreamHandler } = {},
): StreamConsumer[] {
  const tally =
    handlers.tally ??
    createTallyHandler({
      store: new DynamoTallyStore(doc, tables.reports, Date.now, tables.contacts),
      insertedEvents,
      sessions: { store: new DynamoReleaseStore(doc, tables.reports), counts: sessionCounts, discards: discardCounts },
    });
  return [{ name: 'tally', accepts: (record) => isTalliedRecord(record) || isSessionRecord(record), handle: (event) => tally(event) }];
}

/** The alert notifier's records, as its event source mapping's filter in lib/alerts.ts has them: inserts and changes of issue items and release hours. */
export const isIssueItemWrite = (record: DynamoDBRecord): boolean => {
  const pk = record.dynamodb?.Keys?.pk?.S ?? '';
  return (record.eventName === 'INSERT' || record.eventName === 'MODIFY') && (pk.startsWith('issue#') || pk.startsWith(RELEASE_HOUR_PREFIX));
};

/**
 * The alert notifier as a consumer (docs/alerts.md#under-npm-start). It
 * answers a failed record instead of throwing, as Lambda's partial batch
 * response has it; the poller retries a batch that throws, so a failure
 * is thrown here and the batch comes again (its records before the failed
 * one alert nothing new).
 */
export function alertConsumer(notifier: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>): StreamConsumer {
  return {
    name: 'alerts',
    accepts: isIssueItemWrite,
    handle: async (event) => {
      const answer = await notifier(event);
      if (answer.batchItemFailures.length > 0)
        throw new Error(`the alert notifier failed at record ${answer.batchItemFailures[0]?.itemIdentifier}: the batch is handed over again`);
      return answer;
    },
  };
}
