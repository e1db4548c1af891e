import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TableNames } from '../../lambda/store/schema';
import { isTalliedRecord } from '../../lambda/store/stream-records';
import { DynamoTallyStore } from '../../lambda/store/tally-writes';
import { createTallyHandler } from '../../lambda/tally/handler';
import type { StreamConsumer } from './stream-poller';

/**
 * The consumers of the reports table's stream on one machine: the same
 * handlers, with the same record filters, as the stack's event source
 * mappings (lib/tally.ts).
 */
export function reportStreamConsumers(doc: DynamoDBDocumentClient, tables: Pick<TableNames, 'reports'>): StreamConsumer[] {
  const tally = createTallyHandler(new DynamoTallyStore(doc, tables.reports));
  return [{ name: 'tally', accepts: isTalliedRecord, handle: (event) => tally(event) }];
}
