import type { SQSEvent } from 'aws-lambda';
import { createDelivererHandler } from '../../../lambda/alerts/deliverer';
import { JsonLogger } from '../../../lambda/infrastructure/observability/logger';
import { MemoryAlertStore } from '../../../lambda/infrastructure/memory/memory-alert-store';
import { CapturingQueue } from '../../support/alerts';

/** The deliverer's batch of queued attempts: each message on its own; what failed to be recorded is given back to the queue. */
const lines: Record<string, unknown>[] = [];
const logger = new JsonLogger({ service: 'test', level: 'INFO', out: (line) => lines.push(JSON.parse(line)), err: (line) => lines.push(JSON.parse(line)) });
const sqs = (...bodies: string[]): SQSEvent => ({ Records: bodies.map((body, n) => ({ messageId: `m${n}`, body })) }) as SQSEvent;
const message = (sk: string) => JSON.stringify({ factoryId: 'fac_a', destinationId: 'dst_0000000000000001', sk, attempt: 1 });

beforeEach(() => {
  lines.length = 0;
});

test('a message that is not a delivery is logged and dropped, not given back', async () => {
  const handler = createDelivererHandler(
    { store: new MemoryAlertStore(), queue: new CapturingQueue(), send: async () => ({ ok: true, latencyMs: 1 }) },
    logger,
  );
  expect(await handler(sqs('{"hello":1}', 'not json', JSON.stringify({ factoryId: 'f', destinationId: 'd', sk: 's', attempt: 0 })))).toEqual({
    batchItemFailures: [],
  });
  expect(lines.filter((line) => line.message === 'not a delivery message: dropped')).toHaveLength(3);
});

test('an attempt of a delivery that is no longer pending is logged as stale', async () => {
  const handler = createDelivererHandler(
    { store: new MemoryAlertStore(), queue: new CapturingQueue(), send: async () => ({ ok: true, latencyMs: 1 }) },
    logger,
  );
  expect(await handler(sqs(message('gone')))).toEqual({ batchItemFailures: [] });
  expect(lines).toEqual([expect.objectContaining({ message: 'delivery attempt', outcome: 'stale', attempt: 1 })]);
});

test("an attempt the store could not record is answered as failed, so the queue gives it again; the batch's others go on", async () => {
  const store = new MemoryAlertStore();
  store.delivery = async (ref) => {
    if (ref.sk === 'broken') throw new Error('storage unavailable');
    return undefined;
  };
  const handler = createDelivererHandler({ store, queue: new CapturingQueue(), send: async () => ({ ok: true, latencyMs: 1 }) }, logger);
  expect(await handler(sqs(message('fine'), message('broken')))).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
  expect(lines.find((line) => line.level === 'ERROR')).toMatchObject({
    message: 'delivery attempt failed: retried by the queue',
    error: 'storage unavailable',
  });
});
