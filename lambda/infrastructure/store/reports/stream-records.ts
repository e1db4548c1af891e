import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { SequencedEvent } from '../../../ingest/tally/ports';
import { storedEventOf } from './event-items';
import { padSequence } from './tally-writes';

/** The prefix of event items' keys (schema.ts, eventKey): the only records the tally counts. */
export const EVENT_KEY_PREFIX = 'event#';

/**
 * The stream records the tally counts: an event item inserted (never an
 * update, a removal by time to live, or another kind of item), as the filter
 * of the tally's event source mapping also says (lib/tally.ts), so that the
 * tally's own writes (issue items, feed pages) never come back to it.
 */
export const TALLY_RECORD_FILTER = { eventName: 'INSERT', keyPrefix: EVENT_KEY_PREFIX } as const;

export function isTalliedRecord(record: DynamoDBRecord): boolean {
  const pk = record.dynamodb?.Keys?.pk?.S;
  return record.eventName === TALLY_RECORD_FILTER.eventName && typeof pk === 'string' && pk.startsWith(TALLY_RECORD_FILTER.keyPrefix);
}

/** The events newly stored in a batch of stream records, in stream order, each with its place (padded, comparable as text). */
export function insertedEvents(records: readonly DynamoDBRecord[]): SequencedEvent[] {
  const events: SequencedEvent[] = [];
  for (const record of records) {
    const image = record.dynamodb?.NewImage;
    const sequence = record.dynamodb?.SequenceNumber;
    if (!isTalliedRecord(record) || !image || !sequence) continue;
    const item = unmarshall(image as Record<string, AttributeValue>);
    events.push({ seq: padSequence(sequence), event: storedEventOf(item) });
  }
  return events.sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
}
