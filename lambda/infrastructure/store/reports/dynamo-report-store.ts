import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { EventOutcome, ReportStore, StoredFeatureRequest } from '../../../ingest/ports';
import type { StoredEvent } from '../../../ingest/issues/stored-event';
import type { PersonKeys } from '../../../kernel/person-key';
import { withPersonKeys } from './person-attribute';
import { isConditionalCheckFailed, itemOfFailure, storageCall } from '../errors';
import { writeEvents } from './event-writes';
import { Expression } from '../expression';
import { featureRequestKey, feedOf, REPORTS_KEY } from '../schema';

/**
 * Events and feature requests in the reports table. Each report is one
 * conditional write keyed by factory and eventId/requestId: the first
 * write stores it, any later one (a retried beacon, another tab) finds it
 * and changes nothing. An event is a PutItem of its own (./event-writes.ts),
 * in no index: the tally counts it and lists it on feed pages from the
 * table's stream. A feature request is one conditional UpdateItem that
 * creates it, in the byFeed index (factory + kind, receive time). Given
 * person keys, a report naming a reporter's email also carries its person key
 * and so sits in the byPerson index (./person-attribute.ts).
 */
export class DynamoReportStore implements ReportStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly persons?: PersonKeys,
  ) {}

  /** Each event its own conditional PutItem: ./event-writes.ts. */
  async putEvents(events: readonly StoredEvent[]): Promise<{ outcomes: EventOutcome[]; failure?: unknown }> {
    return writeEvents(this.doc, this.tableName, await withPersonKeys(events, this.persons));
  }

  /**
   * Creates the feature request unless its key exists. An item carrying our
   * own write token is our earlier attempt, landed with its answer lost:
   * created. An UpdateItem that sets every attribute, not a PutItem: the same
   * one conditional write and write units, and the function already carries
   * UpdateItem (limits, issues) where PutItem would add about 900 bytes to
   * its asset (docs/performance.md#asset-sizes).
   */
  async putFeatureRequest(request: StoredFeatureRequest): Promise<{ created: boolean; stored: StoredFeatureRequest }> {
    const write = new Expression().set('feed', feedOf(request.factoryId, 'feature-requests'));
    const [keyed] = await withPersonKeys([request], this.persons);
    for (const [name, value] of Object.entries(keyed ?? request)) if (value !== undefined) write.set(name, value);
    write.when(write.notExists(REPORTS_KEY.partitionKey));
    try {
      await storageCall('UpdateItem (feature request)', () =>
        this.doc.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: { [REPORTS_KEY.partitionKey]: featureRequestKey(request.factoryId, request.requestId) },
            ...write.forUpdate(),
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        ),
      );
      return { created: true, stored: request };
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      const found = itemOfFailure<StoredFeatureRequest & { pk?: string; feed?: string }>(error);
      if (!found) return { created: false, stored: request };
      // The request as stored, without its keys.
      const { pk: _pk, feed: _feed, person: _person, ...stored } = found as typeof found & { person?: string };
      return { created: stored.writeToken === request.writeToken, stored };
    }
  }
}
