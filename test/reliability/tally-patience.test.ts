import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { withGrouping } from '../../lambda/ingest/receive-events';
import type { StoredEvent } from '../../lambda/ingest/issues/stored-event';
import { createDynamoClient, DEFAULT_DYNAMO_CONFIG, documentClientOf } from '../../lambda/infrastructure/store/dynamo-client';
import { JsonLogger } from '../../lambda/infrastructure/observability/logger';
import { DynamoIssueStore } from '../../lambda/infrastructure/store/reports/dynamo-issue-store';
import { eventItemOf } from '../../lambda/infrastructure/store/reports/event-items';
import { insertedEvents } from '../../lambda/infrastructure/store/reports/stream-records';
import { DynamoTallyStore } from '../../lambda/infrastructure/store/reports/tally-writes';
import { createTallyHandler, type TallyEvent } from '../../lambda/ingest/tally/tally';
import { endpoint, newFactoryId, tables, testDoc } from '../support/local-api';

/**
 * Capacity never costs a count (docs/report-issues.md#exact-counts): a store that refuses the tally's writes for load
 * is waited out inside the invocation, the batch tried again, counted once; only a store failing past that patience
 * fails the invocation, which the event source mapping tries again a few times before giving the batch up
 * (lib/stream-failures.ts). The refusals are ThrottlingExceptions from a middleware on a real client of the run's
 * DynamoDB Local, past the SDK's own retries; the waits are the handler's, taken at once here.
 */
const quiet = new JsonLogger({ service: 'contacts-tally', level: 'SILENT' });
const T0 = Date.parse('2031-06-01T12:00:00Z');

/** A tally store on a client whose next `refusals` issue writes (UpdateItem, PutItem of an issue) are refused for load. */
function throttledStore(refusals: number): { store: DynamoTallyStore; refused: () => number; close: () => void } {
  const client = createDynamoClient({ ...DEFAULT_DYNAMO_CONFIG, endpoint: endpoint() });
  let refused = 0;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      // The document client's input (plain values) or the marshalled one, by whichever stack the middleware sees.
      const input = args.input as { Key?: { pk?: unknown }; Item?: { pk?: unknown } };
      const pk = input.Key?.pk ?? input.Item?.pk;
      const key = typeof pk === 'string' ? pk : String((pk as { S?: string } | undefined)?.S ?? '');
      const writesIssue = /^(Update|Put)(Item)?Command$/.test(String(context.commandName)) && key.startsWith('issue#');
      if (writesIssue && refused < refusals) {
        refused += 1;
        throw Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), { name: 'ThrottlingException', $fault: 'client' });
      }
      return next(args);
    },
    { step: 'initialize', name: 'throttleIssueWrites' },
  );
  return { store: new DynamoTallyStore(documentClientOf(client), tables.reports), refused: () => refused, close: () => client.destroy() };
}

function batchOf(factoryId: string, n: number): TallyEvent {
  const records = Array.from({ length: n }, (_, i): DynamoDBRecord => {
    const event: StoredEvent = withGrouping({
      factoryId,
      keyId: 'key_patience',
      origin: 'https://a.com',
      receivedAt: new Date(T0 + i * 100).toISOString(),
      expiresAt: Math.floor(T0 / 1000) + 86_400,
      writeToken: `w${i}`,
      eventId: randomUUID(),
      type: 'error',
      message: 'boom',
      fingerprint: ['patience'],
    });
    return {
      eventName: 'INSERT',
      dynamodb: {
        Keys: { pk: { S: `event#${factoryId}#${event.eventId}` } },
        NewImage: marshall(eventItemOf(event), { removeUndefinedValues: true }) as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'],
        SequenceNumber: String(7_000 + i),
      },
    };
  });
  return { Records: records, shardId: 'shardId-patience' };
}

const countOf = async (factoryId: string) =>
  (await new DynamoIssueStore(testDoc(), tables.reports).listIssues(factoryId, { limit: 5, nowMs: T0 + 60_000 })).map((issue) => issue.count);

test('issue writes refused for load are waited out inside the invocation: the batch passes, every event counted once', async () => {
  const factoryId = newFactoryId('patience');
  const { store, refused, close } = throttledStore(4);
  const waits: number[] = [];
  const handler = createTallyHandler({ store, insertedEvents, patienceMs: 60_000, sleep: async (ms) => void waits.push(ms) }, quiet);
  try {
    await expect(handler(batchOf(factoryId, 12))).resolves.toMatchObject({ batchItemFailures: [] });
    expect(refused()).toBe(4);
    // Backing off: each wait twice the one before.
    expect(waits).toEqual([100, 200, 400, 800]);
    expect(await countOf(factoryId)).toEqual([12]);
  } finally {
    close();
  }
});

test('past its patience the invocation fails (the mapping tries it again), and the batch delivered again counts each event once', async () => {
  const factoryId = newFactoryId('patience');
  const { store, close } = throttledStore(3);
  const impatient = createTallyHandler({ store, insertedEvents, patienceMs: 0 }, quiet);
  const batch = batchOf(factoryId, 5);
  try {
    await expect(impatient(batch)).rejects.toThrow(/StorageThrottledError|exceeds the allowed throughput/);
    await expect(impatient(batch)).rejects.toThrow();
    await expect(impatient(batch)).rejects.toThrow();
    await impatient(batch);
    await impatient(batch);
    expect(await countOf(factoryId)).toEqual([5]);
  } finally {
    close();
  }
});

test('a failure that is not the store failing (a fault in the code) is not waited out: the invocation fails at once', async () => {
  const factoryId = newFactoryId('patience');
  const store = new DynamoTallyStore(testDoc(), tables.reports);
  let waited = false;
  const broken = Object.assign(Object.create(store) as DynamoTallyStore, {
    writePages: async () => {
      throw new TypeError('a bug');
    },
  });
  const handler = createTallyHandler({ store: broken, insertedEvents, sleep: async () => void (waited = true) }, quiet);
  await expect(handler(batchOf(factoryId, 2))).rejects.toThrow('a bug');
  expect(waited).toBe(false);
});
