import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { EventToStore } from '../ingest/issues';
import type { ReportStore, StoredFeatureRequest } from '../ingest/ports';
import type { CallLog } from '../domain/ports';
import { isConditionalCheckFailed, itemOfFailure, storageCall } from './errors';
import { Expression } from './expression';
import { writeEventsAndIssues } from './issue-writes';
import { featureRequestKey, feedOf, REPORTS_KEY } from './schema';

/**
 * Events and feature requests in the reports table. Each report is one
 * conditional write keyed by factory and eventId/requestId: the first
 * write stores it, any later one (a retried beacon, another tab) finds it
 * and changes nothing. The events of one request go in one transaction with
 * the counts of their issues (./issue-writes.ts); a feature request is one
 * conditional UpdateItem that creates it. The item also lands in the byFeed index (factory + kind, receive
 * time; type and expiry projected) for newest-first reading.
 */
export class DynamoReportStore implements ReportStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** The events and their issues' counts in one transaction: ./issue-writes.ts. */
  putEvents(events: readonly EventToStore[], log?: CallLog): Promise<('stored' | 'duplicate')[]> {
    return writeEventsAndIssues(this.doc, this.tableName, events, log);
  }

  async putFeatureRequest(request: StoredFeatureRequest, log?: CallLog): Promise<{ created: boolean; stored: StoredFeatureRequest }> {
    const item = { pk: featureRequestKey(request.factoryId, request.requestId), feed: feedOf(request.factoryId, 'feature-requests'), ...request };
    const { created, existing } = await this.putOnce<StoredFeatureRequest>(item, request.writeToken, 'UpdateItem (feature request)', log);
    return { created, stored: existing ?? request };
  }

  /**
   * Writes the item unless its key exists. An item carrying our own write
   * token is our earlier attempt, landed with its answer lost: created.
   * An UpdateItem that sets every attribute, not a PutItem: the same one
   * conditional write and write units, and the function already carries
   * UpdateItem (limits, issues) where PutItem would add about 900 bytes to
   * its asset (docs/performance.md#asset-sizes).
   */
  private async putOnce<T extends { writeToken: string }>(item: Record<string, unknown> & { pk: string }, writeToken: string, operation: string, log?: CallLog) {
    const { pk, ...attributes } = item;
    const write = new Expression();
    for (const [name, value] of Object.entries(attributes)) if (value !== undefined) write.set(name, value);
    write.when(write.notExists(REPORTS_KEY.partitionKey));
    try {
      await storageCall(operation, () =>
        this.doc.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: { [REPORTS_KEY.partitionKey]: pk },
            ...write.forUpdate(),
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        ),
        log,
      );
      return { created: true, existing: undefined };
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      const found = itemOfFailure<T & { pk?: string; feed?: string }>(error);
      // The record as stored, without its keys.
      const { pk: _pk, feed: _feed, ...existing } = found ?? {};
      return { created: found?.writeToken === writeToken, existing: found ? (existing as T) : undefined };
    }
  }
}
