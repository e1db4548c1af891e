import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { countsOfNewElements, countsOfRow, decodeDiscard, decodeRow } from '../../../ingest/sessions/session-carry';
import { padSequence } from '../../../ingest/tally/exactly-once';
import type { SequencedDiscardCount, SequencedSessionCount } from '../../../ingest/tally/ports';
import { SESSION_ATTRIBUTES, SLOT_ATTRIBUTES } from './session-attributes';
import { withTypedEmptyMapsIn } from './stream-records';

/** The prefix of limiter items' keys (schema.ts, limiterKey): the items sessions ride on. */
export const LIMITER_KEY_PREFIX = 'limit#';

/**
 * The stream records whose sessions the tally counts: a limiter item made or changed by a write that carried
 * sessions (its new image names their factory), as the second filter of the tally's event source mapping also says
 * (lib/tally.ts).
 */
export const SESSION_RECORD_FILTER = { eventNames: ['INSERT', 'MODIFY'], keyPrefix: LIMITER_KEY_PREFIX, attribute: SESSION_ATTRIBUTES.factory } as const;

export function isSessionRecord(record: DynamoDBRecord): boolean {
  const pk = record.dynamodb?.Keys?.pk?.S;
  return (
    (SESSION_RECORD_FILTER.eventNames as readonly string[]).includes(record.eventName ?? '') &&
    typeof pk === 'string' &&
    pk.startsWith(SESSION_RECORD_FILTER.keyPrefix) &&
    record.dynamodb?.NewImage?.[SESSION_RECORD_FILTER.attribute] !== undefined
  );
}

function imageOf(image: unknown): Record<string, unknown> {
  if (!image || typeof image !== 'object') return {};
  try {
    return unmarshall(withTypedEmptyMapsIn(image as Record<string, AttributeValue>));
  } catch {
    return {};
  }
}

/** Every element of the item's slots. */
function elementsOf(item: Record<string, unknown>): Set<string> {
  const elements = new Set<string>();
  for (const name of SLOT_ATTRIBUTES) {
    const value = item[name];
    if (value instanceof Set) for (const element of value) if (typeof element === 'string') elements.add(element);
  }
  return elements;
}

const objectOf = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/**
 * The session counts one record's write added (lambda/ingest/sessions/session-carry.ts): the statuses in its new
 * image and not in its old one, and the aggregate rows that write set. Never a throw: what cannot be read counts
 * nothing.
 */
function countsOfRecord(record: DynamoDBRecord, seq: string): SequencedSessionCount[] {
  const after = imageOf(record.dynamodb?.NewImage);
  const before = imageOf(record.dynamodb?.OldImage);
  const factoryId = after[SESSION_ATTRIBUTES.factory];
  if (typeof factoryId !== 'string' || factoryId === '') return [];
  const counts = countsOfNewElements(elementsOf(before), elementsOf(after), objectOf(after[SESSION_ATTRIBUTES.details]));
  for (const text of ownRows(record, 'r')) {
    const row = decodeRow(text);
    if (row) counts.push(...countsOfRow(row));
  }
  return counts.map((count) => ({ ...count, factoryId, seq }));
}

/** The session counts a batch of stream records adds, in stream order (docs/release-health.md#how-a-session-is-recorded). */
export function sessionCounts(records: readonly DynamoDBRecord[]): SequencedSessionCount[] {
  const counts: SequencedSessionCount[] = [];
  for (const record of records) {
    const sequence = record.dynamodb?.SequenceNumber;
    if (!isSessionRecord(record) || typeof sequence !== 'string' || sequence === '') continue;
    counts.push(...countsOfRecord(record, padSequence(sequence)));
  }
  return counts.sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
}

/** The rows a record's own write set (its token is the record's, not the old image's): aggregates or client reports. */
function ownRows(record: DynamoDBRecord, field: 'r' | 'd'): unknown[] {
  const after = imageOf(record.dynamodb?.NewImage);
  const before = imageOf(record.dynamodb?.OldImage);
  const carried = objectOf(after[SESSION_ATTRIBUTES.aggregates]);
  const token = after[SESSION_ATTRIBUTES.token];
  const rows = carried[field];
  return carried.t === token && token !== undefined && before[SESSION_ATTRIBUTES.token] !== token && Array.isArray(rows) ? rows : [];
}

/** The client report rows a batch of stream records adds, per key (the limiter item's), in stream order. */
export function discardCounts(records: readonly DynamoDBRecord[]): SequencedDiscardCount[] {
  const counts: SequencedDiscardCount[] = [];
  for (const record of records) {
    const sequence = record.dynamodb?.SequenceNumber;
    const pk = record.dynamodb?.Keys?.pk?.S ?? '';
    if (!isSessionRecord(record) || typeof sequence !== 'string' || sequence === '') continue;
    const keyId = pk.slice(LIMITER_KEY_PREFIX.length).split('#')[0] ?? '';
    if (keyId === '') continue;
    for (const text of ownRows(record, 'd')) {
      const row = decodeDiscard(text);
      if (row) counts.push({ ...row, keyId, seq: padSequence(sequence) });
    }
  }
  return counts.sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
}
