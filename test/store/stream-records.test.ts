import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import fc from 'fast-check';
import type { IngestEvent } from '../../lambda/ingest/issues/stored-event';
import { readEvent } from '../../lambda/ingest/payloads';
import { storedEvent, withGrouping } from '../../lambda/ingest/receive-events';
import { readSentryEvent } from '../../lambda/ingest/sentry/sentry-event';
import { tallyBatch } from '../../lambda/ingest/tally/tally-batch';
import { MemoryReportStore } from '../../lambda/infrastructure/memory/memory-report-store';
import { eventItemOf } from '../../lambda/infrastructure/store/reports/event-items';
import { insertedEvents } from '../../lambda/infrastructure/store/reports/stream-records';
import { ingestEvent } from '../../tools/fuzz/ingest-requests';

/**
 * Every event the ingest stores can be read back by the tally (docs/report-issues.md#events-set-aside): events of
 * both protocols made by the fuzzer's arbitraries, read as the ingest reads them, stored as it stores them
 * (eventItemOf, marshalled as its document client does), handed over as stream records, both as DynamoDB writes
 * them and as DynamoDB Local does (an empty map, at any depth, written `{}` with no type), then read by the tally's
 * reader and counted: none is set aside, and each reads back as it was stored. And a record the reader cannot read
 * is set aside, never thrown on, whatever it holds.
 */
const RECEIPT = {
  factoryId: 'fac_stream',
  keyId: 'key_stream',
  origin: 'https://shop.example',
  receivedAt: '2031-03-01T12:00:00.000Z',
  expiresAt: 1_930_000_000,
  visitor: 'AbCdEfGh',
  requestToken: 'req',
};

const text = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('', 'x\ud800y', '\u202Eevil', 'line\nbreak'));
const number = fc.oneof(fc.integer({ min: -5, max: 1_000_000 }), fc.double({ noNaN: false }), fc.constantFrom(-1, 0));

/** A Sentry frame as SDKs send them, the odd ones too: `{"lineno": -1}` alone, no function, no file, numbers as text. */
const sentryFrame = fc.oneof(
  fc.constant({ lineno: -1 }),
  fc.record(
    {
      lineno: fc.oneof(number, fc.constant('12')),
      colno: number,
      function: text,
      module: text,
      filename: text,
      abs_path: text,
      context_line: text,
      in_app: fc.oneof(fc.boolean(), fc.constant('yes')),
    },
    { requiredKeys: [] },
  ),
);

/** A Sentry event as SDKs (and strangers) send one: most fields optional, maps empty or not. */
const sentryEvent = fc.record(
  {
    event_id: fc.uuid({ version: 4 }).map((id) => id.replace(/-/g, '')),
    message: fc.oneof(text, fc.record({ formatted: text }, { requiredKeys: [] })),
    level: fc.constantFrom('error', 'warning', 'fatal'),
    release: text,
    tags: fc.oneof(fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 3 }), fc.constant({})),
    user: fc.record({ id: text, email: text, username: text }, { requiredKeys: [] }),
    contexts: fc.constant({}),
    exception: fc.record({
      values: fc.array(
        fc.record({ type: text, value: text, stacktrace: fc.record({ frames: fc.array(sentryFrame, { maxLength: 4 }) }) }, { requiredKeys: [] }),
        { maxLength: 2 },
      ),
    }),
  },
  { requiredKeys: ['event_id'] },
);

/** What the ingest stores of an event, when it stores it. */
const storedOf = (event: IngestEvent) => withGrouping(storedEvent(event, RECEIPT, 0));

/** An item's stream record, as DynamoDB writes it, or as DynamoDB Local does (its untyped empty maps). */
function recordOf(item: Record<string, unknown>, sequence: number, local: boolean): DynamoDBRecord {
  const image = marshall(item, { removeUndefinedValues: true }) as Record<string, AttributeValue>;
  // On the wire (DynamoDB Local's JSON, as DynamoDB's) a binary value is base64.
  const wire = JSON.stringify(image, function (this: Record<string, unknown>, key, value) {
    const own = this[key];
    return own instanceof Uint8Array ? Buffer.from(own).toString('base64') : value;
  });
  const NewImage = local ? (JSON.parse(wire.replaceAll('{"M":{}}', '{}')) as typeof image) : image;
  return {
    eventName: 'INSERT',
    dynamodb: {
      Keys: { pk: { S: item.pk as string } },
      NewImage: NewImage as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'],
      SequenceNumber: String(100 + sequence),
    },
  };
}

/** The reader and the tally on these events' records: each read back as stored, none set aside, all counted. */
async function readBack(stored: ReturnType<typeof storedOf>[], local: boolean): Promise<void> {
  const records = stored.map((event, i) =>
    recordOf(eventItemOf({ ...event, eventId: `${event.eventId.slice(0, 30)}${String(i).padStart(6, '0')}` }), i, local),
  );
  const read = insertedEvents(records);
  expect(read.setAside).toEqual([]);
  expect(read.events.map(({ event }) => event)).toEqual(
    stored.map((event, i) => JSON.parse(JSON.stringify({ ...event, eventId: `${event.eventId.slice(0, 30)}${String(i).padStart(6, '0')}` }))),
  );
  const outcome = await tallyBatch(new MemoryReportStore(), 'shard', read.events, read.setAside);
  expect(outcome.setAside).toBeUndefined();
  expect(outcome.events).toBe(stored.length);
}

const readings = <T>(values: T[], read: (value: T) => ReturnType<typeof readEvent>) =>
  values.flatMap((value) => {
    const reading = read(value);
    return reading.ok ? [storedOf(reading.value)] : [];
  });

test.each([
  ['as DynamoDB writes them', false],
  ['as DynamoDB Local writes them (empty maps untyped)', true],
])('every event of the own API the ingest stores is read back by the tally and counted: records %s', async (_name, local) => {
  await fc.assert(
    fc.asyncProperty(fc.array(ingestEvent, { minLength: 1, maxLength: 5 }), (raw) => readBack(readings(raw, readEvent), local)),
    { numRuns: 30 },
  );
});

test.each([
  ['as DynamoDB writes them', false],
  ['as DynamoDB Local writes them (empty maps untyped)', true],
])(
  'every Sentry event the ingest stores, odd frames ({"lineno": -1} alone) and empty maps included, is read back and counted: records %s',
  async (_name, local) => {
    await fc.assert(
      fc.asyncProperty(fc.array(sentryEvent, { minLength: 1, maxLength: 5 }), (raw) =>
        readBack(
          readings(raw, (event) => readSentryEvent(event)),
          local,
        ),
      ),
      { numRuns: 150 },
    );
  },
);

test('the Sentry frame {"lineno": -1} alone: the ingest no longer stores it, and one stored as sdkFrames [{}] before reads back from DynamoDB Local as it was stored', async () => {
  const reading = readSentryEvent({ event_id: '8f0c1a523b6e4c7e9a432f5d1e0b7c11', exception: { values: [{ stacktrace: { frames: [{ lineno: -1 }] } }] } });
  if (!reading.ok) throw new Error('the event was refused');
  // The ingest drops a frame with nothing left once read (issue 48); an event stored by an earlier version still has one.
  expect(reading.value.sdkFrames).toBeUndefined();
  const stored = { ...storedOf(reading.value), sdkFrames: [{}] };
  await readBack([stored], true);
});

/** Whatever a record's image holds, the reader answers: an event, or the record set aside with its place and key. */
test('a record whose image cannot be read is set aside as unreadable with its place and key, never thrown on; the records beside it are read', () => {
  const good = recordOf(eventItemOf(storedOf({ eventId: '00000000-0000-4000-8000-000000000001', type: 'error', message: 'ok' })), 2, false);
  fc.assert(
    fc.property(fc.jsonValue(), (junk) => {
      const bad: DynamoDBRecord = {
        eventName: 'INSERT',
        dynamodb: { Keys: { pk: { S: 'event#fac_stream#00000000-0000-4000-8000-000000000009' } }, NewImage: { junk } as never, SequenceNumber: '101' },
      };
      const read = insertedEvents([good, bad]);
      expect(read.events).toHaveLength(1);
      expect(read.setAside).toEqual([
        expect.objectContaining({ factoryId: 'fac_stream', eventId: '00000000-0000-4000-8000-000000000009', seq: expect.stringMatching(/0101$/) }),
      ]);
      expect(['unreadable', 'malformed']).toContain(read.setAside[0]?.reason);
    }),
    { numRuns: 200 },
  );
  const noImage: DynamoDBRecord = { eventName: 'INSERT', dynamodb: { Keys: { pk: { S: 'event#fac_stream#x' } }, SequenceNumber: '7' } };
  expect(insertedEvents([noImage]).setAside).toEqual([expect.objectContaining({ reason: 'unreadable', detail: 'image', eventId: 'x' })]);
});

test('records of other items, of other kinds of change, or without a place are not the tally’s: neither read nor set aside', () => {
  const item = eventItemOf(storedOf({ eventId: '00000000-0000-4000-8000-000000000001', type: 'error', message: 'ok' }));
  const record = recordOf(item, 1, false);
  const others: DynamoDBRecord[] = [
    { ...record, eventName: 'MODIFY' },
    { ...record, dynamodb: { ...record.dynamodb, Keys: { pk: { S: 'issue#fac_stream#iss_1' } } } },
    { ...record, dynamodb: { ...record.dynamodb, SequenceNumber: undefined } },
  ];
  expect(insertedEvents(others)).toEqual({ events: [], setAside: [] });
});
