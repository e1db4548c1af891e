import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
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
 * PutItem. The item also lands in the byFeed index (factory + kind, receive
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
    const { created, existing } = await this.putOnce<StoredFeatureRequest>(item, request.writeToken, 'PutItem (feature request)', log);
    return { created, stored: existing ?? request };
  }

  /**
   * Writes the item unless its key exists. An item carrying our own write
   * token is our earlier attempt, landed with its answer lost: created.
   */
  private async putOnce<T extends { writeToken: string }>(item: Record<string, unknown>, writeToken: string, operation: string, log?: CallLog) {
    const absent = new Expression();
    absent.when(absent.notExists(REPORTS_KEY.partitionKey));
    try {
      await storageCall(operation, () =>
        this.doc.send(
          new PutCommand({
            TableName: this.tableName,
            Item: item,
            ...absent.forCondition(),
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
