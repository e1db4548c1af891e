import { createTallyHandler, shardKeyOf, type TallyEvent } from '../../../../lambda/ingest/tally/tally';
import type { TallyStore } from '../../../../lambda/ingest/tally/ports';
import { JsonLogger } from '../../../../lambda/infrastructure/observability/logger';
import { MemoryReportStore } from '../../../../lambda/infrastructure/memory/memory-report-store';
import { StorageUnavailableError } from '../../../../lambda/kernel/errors';

/** The tally's handler: a tumbling window's batch, its records read by the store's reader (given here), counted patiently. */
const lines: Record<string, unknown>[] = [];
const logger = new JsonLogger({ service: 'tally', level: 'INFO', out: (line) => lines.push(JSON.parse(line)), err: (line) => lines.push(JSON.parse(line)) });
const record = { eventID: '1', dynamodb: { SequenceNumber: '1' } };

beforeEach(() => {
  lines.length = 0;
});

test('an empty window answers at once, a state and no failures', async () => {
  const handler = createTallyHandler({ store: new MemoryReportStore(), insertedEvents: () => ({ events: [], setAside: [] }) }, logger);
  expect(await handler({ Records: [] })).toEqual({ state: {}, batchItemFailures: [] });
});

test('records without their shard (a mapping without a tumbling window) are refused, saying what to fix', async () => {
  const handler = createTallyHandler({ store: new MemoryReportStore(), insertedEvents: () => ({ events: [], setAside: [] }) }, logger);
  await expect(handler({ Records: [record] } as TallyEvent)).rejects.toThrow(/needs the stream shard of its records \(shardId\)/);
});

test('a batch is counted and logged; records set aside make the line a warning', async () => {
  const handler = createTallyHandler(
    {
      store: new MemoryReportStore(),
      insertedEvents: () => ({ events: [], setAside: [{ seq: '1', factoryId: 'fac_a', eventId: 'e', reason: 'unreadable' }] }),
    },
    logger,
  );
  expect(await handler({ Records: [record], shardId: 'shardId-1' } as TallyEvent)).toEqual({ state: {}, batchItemFailures: [] });
  expect(lines).toEqual([expect.objectContaining({ level: 'WARN', message: 'tally set records aside', records: 1 })]);
});

test('a store failing for a moment is waited out within the patience; past it, the batch fails to be delivered again', async () => {
  const store = new MemoryReportStore();
  let failures = 2;
  const flaky = Object.create(store) as TallyStore;
  flaky.writePages = async (...args) => {
    if (failures-- > 0) throw new StorageUnavailableError('Query', new Error('throttled'));
    return store.writePages(...args);
  };
  const waits: number[] = [];
  const sleep = async (ms: number) => void waits.push(ms);
  const handler = createTallyHandler({ store: flaky, insertedEvents: () => ({ events: [], setAside: [] }), sleep }, logger);
  await handler({ Records: [record], shardId: 'shardId-1' } as TallyEvent);
  expect(waits).toEqual([100, 200]);
  failures = 1_000;
  const impatient = createTallyHandler({ store: flaky, insertedEvents: () => ({ events: [], setAside: [] }), sleep, patienceMs: 0 }, logger);
  await expect(impatient({ Records: [record], shardId: 'shardId-1' } as TallyEvent)).rejects.toThrow(StorageUnavailableError);
});

test("a shard's mark key: 12 hex characters of its id's hash, the same every time", () => {
  expect(shardKeyOf('shardId-00000001')).toMatch(/^[0-9a-f]{12}$/);
  expect(shardKeyOf('shardId-00000001')).toBe(shardKeyOf('shardId-00000001'));
  expect(shardKeyOf('shardId-00000002')).not.toBe(shardKeyOf('shardId-00000001'));
});
