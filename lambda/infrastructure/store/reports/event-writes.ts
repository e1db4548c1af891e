import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { EventOutcome } from '../../../ingest/ports';
import type { StoredEvent } from '../../../ingest/issues/stored-event';
import { isConditionalCheckFailed, itemOfFailure, storageCall } from '../errors';
import { eventItemOf, storedEventOf } from './event-items';

/**
 * The events of one ingest request, each its own conditional PutItem, all
 * at once (docs/report-issues.md#exact-counts): `attribute_not_exists(pk)`
 * is the eventId dedupe, and no item is written by every request (no
 * transaction, no issue item, no index entry: docs/capacity.md). An event
 * found stored is a duplicate, or, when it carries this write's token, our
 * own earlier attempt whose answer was lost (stored). What the events add to
 * their issues is counted from the table's stream by the tally, once per
 * stored event. One failed write fails only its event: the others are
 * stored, and sending the request again stores the rest.
 */
export async function writeEvents(
  doc: DynamoDBDocumentClient,
  tableName: string,
  events: readonly StoredEvent[],
): Promise<{ outcomes: EventOutcome[]; failure?: unknown }> {
  const firsts = new Set<string>();
  let failure: unknown;
  const outcomes = await Promise.all(
    events.map(async (event): Promise<EventOutcome> => {
      // The second event of a request with an eventId is a duplicate of the first.
      if (firsts.has(event.eventId)) return 'duplicate';
      firsts.add(event.eventId);
      try {
        await storageCall('PutItem (event)', () =>
          doc.send(
            new PutCommand({
              TableName: tableName,
              Item: eventItemOf(event),
              ConditionExpression: 'attribute_not_exists(pk)',
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            }),
          ),
        );
        return 'stored';
      } catch (error) {
        if (isConditionalCheckFailed(error)) {
          const found = itemOfFailure(error);
          return found && storedEventOf(found).writeToken === event.writeToken ? 'stored' : 'duplicate';
        }
        failure ??= error;
        return 'failed';
      }
    }),
  );
  return failure === undefined ? { outcomes } : { outcomes, failure };
}
