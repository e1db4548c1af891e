import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TableNames } from '../../lambda/store/schema';
import { isTalliedRecord } from '../../lambda/store/stream-records';
import { DynamoTallyStore } from '../../lambda/store/tally-writes';
import { createTallyHandler } from '../../lambda/tally/handler';
import type { LocalStreamEvent, StreamConsumer } from './stream-poller';

/** A consumer's handler as its Lambda entry exports it (the source's, or a bundled asset's). */
export type StreamHandler = (event: LocalStreamEvent) => Promise<unknown>;

/**
 * The consumers of the reports table's stream on one machine: the same
 * handlers, with the same record filters, as the stack's event source
 * mappings (lib/tally.ts). `handlers.tally`, when given, is the tally's
 * Lambda entry itself (`npm start -- --bundle`: the asset `cdk deploy` uploads).
 */
export function reportStreamConsumers(doc: DynamoDBDocumentClient, tables: Pick<TableNames, 'reports'>, handlers: { tally?: StreamHandler } = {}): StreamConsumer[] {
  const tally = handlers.tally ?? createTallyHandler(new DynamoTallyStore(doc, tables.reports));
  return [{ name: 'tally', accepts: isTalliedRecord, handle: (event) => tally(event) }];
}
