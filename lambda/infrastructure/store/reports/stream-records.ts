import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { countableEvent, isSetAside, type EventKey } from '../../../ingest/tally/countable';
import { padSequence } from '../../../ingest/tally/exactly-once';
import type { ReadBatch, SequencedEvent, SetAsideRecord } from '../../../ingest/tally/ports';
import { storedEventOf } from './event-items';

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

/** The factory and eventId an event item's key names (`event#<factory>#<eventId>`: an eventId holds no `#`). */
function eventKeyOf(pk: string): EventKey {
  const rest = pk.slice(EVENT_KEY_PREFIX.length);
  const cut = rest.lastIndexOf('#');
  return cut < 0 ? { factoryId: rest, eventId: '' } : { factoryId: rest.slice(0, cut), eventId: rest.slice(cut + 1) };
}

/**
 * An attribute value as a stream record of DynamoDB Local carries it, made what DynamoDB itself sends: DynamoDB
 * Local writes an empty map, at any depth, as `{}` with no type (`tags: {}`, or the `{}` of `sdkFrames: [{}]` that a
 * Sentry frame with only `"lineno": -1` leaves), which the SDK's unmarshall refuses. Nothing else is changed.
 */
function withTypedEmptyMaps(value: AttributeValue): AttributeValue {
  if (typeof value !== 'object' || value === null) return value;
  if (Object.keys(value).length === 0) return { M: {} };
  if (value.M !== undefined) return { M: withTypedEmptyMapsIn(value.M) };
  if (value.L !== undefined) return { L: value.L.map(withTypedEmptyMaps) };
  return value;
}

export const withTypedEmptyMapsIn = (image: Record<string, AttributeValue>): Record<string, AttributeValue> =>
  Object.fromEntries(Object.entries(image).map(([name, value]) => [name, withTypedEmptyMaps(value)]));

/** One inserted event item's record read as its event, or set aside with the step that failed: never a throw. */
function readRecord(record: DynamoDBRecord, seq: string, key: EventKey): SequencedEvent | SetAsideRecord {
  const unreadable = (detail: string): SetAsideRecord => ({ seq, ...key, reason: 'unreadable', detail });
  const image = record.dynamodb?.NewImage;
  if (!image || typeof image !== 'object') return unreadable('image');
  let item: Record<string, unknown>;
  try {
    item = unmarshall(withTypedEmptyMapsIn(image as Record<string, AttributeValue>));
  } catch {
    return unreadable('item');
  }
  let event: Record<string, unknown>;
  try {
    event = storedEventOf(item) as unknown as Record<string, unknown>;
  } catch {
    return unreadable('event');
  }
  return countableEvent(seq, key, event);
}

/**
 * The events newly stored in a batch of stream records, in stream order, each with its place (padded, comparable
 * as text), and the records among them the tally cannot count (docs/report-issues.md#events-set-aside): never a
 * throw, whatever a record holds, so that no record can stop the counting of those after it.
 */
export function insertedEvents(records: readonly DynamoDBRecord[]): ReadBatch {
  const readings: (SequencedEvent | SetAsideRecord)[] = [];
  for (const record of records) {
    const sequence = record.dynamodb?.SequenceNumber;
    if (!isTalliedRecord(record) || typeof sequence !== 'string' || sequence === '') continue;
    readings.push(readRecord(record, padSequence(sequence), eventKeyOf(record.dynamodb?.Keys?.pk?.S as string)));
  }
  readings.sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
  return { events: readings.filter((reading): reading is SequencedEvent => !isSetAside(reading)), setAside: readings.filter(isSetAside) };
}
