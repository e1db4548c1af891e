import type { SQSEvent } from 'aws-lambda';
import { DEPLOYED_POLICY, LOCAL_POLICY, type AddressPolicy } from '../../lambda/alerts/address-policy';
import { alertStoreOf } from '../../lambda/alerts/alerts-wiring';
import { createDelivererHandler } from '../../lambda/alerts/deliverer';
import type { Resolve } from '../../lambda/alerts/guarded-lookup';
import { periodKey } from '../../lambda/ingest/issues/buckets';
import { createNotifierHandler } from '../../lambda/alerts/notifier';
import type { DeliveryMessage, Destination } from '../../lambda/alerts/ports';
import { MAX_ATTEMPTS } from '../../lambda/alerts/retry-schedule';
import { webhookSender } from '../../lambda/alerts/webhook-sender';
import { controlDependencies } from '../../lambda/control/control-room-wiring';
import { handleControlRequest } from '../../lambda/control/handle-request';
import { JsonLogger } from '../../lambda/infrastructure/observability/logger';
import { issueChangeOf } from '../../lambda/infrastructure/store/reports/stream-images';
import { CapturingQueue, issueItem, startReceiver, streamEvent, streamRecord, type Receiver } from '../support/alerts';
import { newFactoryId, tables, testDoc } from '../support/local-api';

/**
 * Alerts end to end on DynamoDB Local, below the stream: hand-made stream
 * records of issue items (the shape Lambda hands the notifier) go through
 * the notifier; its queued messages go through the deliverer (the shape
 * SQS hands it) to a receiver on 127.0.0.1 that checks each signature with
 * the Standard Webhooks library. Time moves by the clock the deliverer is
 * given: no test waits for a retry's delay.
 */
const doc = testDoc();
const store = alertStoreOf(doc, tables.alerts);
const silent = new JsonLogger({ service: 'test', level: 'SILENT' });
const ISSUE = 'iss_0123456789abcdef0123';

let receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  receivers = [];
});

async function receiver(status?: (n: number) => number): Promise<Receiver> {
  const started = await startReceiver(status);
  receivers.push(started);
  return started;
}

/** The control room on the test store, as `npm start`'s commands run it (loopback allowed) or as a stack does. */
function control(policy: AddressPolicy = LOCAL_POLICY, resolve?: Resolve) {
  const deps = controlDependencies(doc, tables, 'platform', { alerts: tables.alerts, alertPolicy: policy, ...(resolve ? { resolve } : {}) });
  return async (request: Record<string, unknown>) => {
    const answer = await handleControlRequest(deps, request, { principal: 'test:operator' });
    return { status: answer.status, body: answer.body as Record<string, any>, audit: answer.audit };
  };
}

async function addDestination(factoryId: string, url: string, types?: string[]): Promise<{ destinationId: string; secret: string }> {
  const { status, body } = await control()({ operation: 'alerts.add', factoryId, url, ...(types ? { types } : {}) });
  expect(status).toBe(200);
  return { destinationId: body.destinationId, secret: body.secret };
}

/** A deliverer whose clock the test moves, and the queue its retries go to. */
function deliverer(clock: { ms: number }, policy: AddressPolicy = LOCAL_POLICY, resolve?: Resolve) {
  const queue = new CapturingQueue();
  const handler = createDelivererHandler(
    { store, queue, send: webhookSender({ policy, ...(resolve ? { resolve } : {}) }), now: () => new Date(clock.ms), random: () => 0 },
    silent,
  );
  const run = (message: DeliveryMessage) => handler({ Records: [{ messageId: 'm', body: JSON.stringify(message) }] } as SQSEvent);
  return { queue, run };
}

const notifierWith = (queue: CapturingQueue) => createNotifierHandler({ store, queue, linkBase: 'http://127.0.0.1:4000' }, issueChangeOf, silent);

describe('alerts from stream records to signed deliveries', () => {
  test('a new issue, its record delivered three times, gives one alert and one signed delivery per destination taking its type, verified by the Standard Webhooks library', async () => {
    const factoryId = newFactoryId('alnew');
    const target = await receiver();
    const other = await receiver();
    const all = await addDestination(factoryId, target.url);
    await addDestination(factoryId, other.url, ['issue.spiking']);
    const queue = new CapturingQueue();
    const notifier = notifierWith(queue);
    const record = streamRecord(
      undefined,
      issueItem(factoryId, ISSUE, { title: 'TypeError: ada@example.com has no cart', lastRelease: 'web@1.4.2', firstRelease: 'web@1.4.2' }),
    );
    for (let round = 0; round < 3; round += 1) expect(await notifier(streamEvent(record))).toEqual({ batchItemFailures: [] });

    const messages = queue.take();
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ delaySeconds: 0, message: { factoryId, destinationId: all.destinationId, attempt: 1 } });
    const clock = { ms: Date.now() };
    const { run } = deliverer(clock);
    // SQS may hand a message over twice: the attempt is taken once.
    await Promise.all([run(messages[0]!.message), run(messages[0]!.message)]);

    expect(target.received).toHaveLength(1);
    expect(other.received).toHaveLength(0);
    expect(target.verifiedWith(all.secret)).toHaveLength(1);
    const body = JSON.parse(target.received[0]!.body);
    expect(body).toEqual({
      type: 'issue.created',
      timestamp: '2026-11-25T14:02:00.000Z',
      data: {
        issueId: ISSUE,
        factoryId,
        title: 'TypeError: <email> has no cart',
        count: 1,
        status: 'open',
        release: 'web@1.4.2',
        firstRelease: 'web@1.4.2',
        firstSeen: '2026-11-25T14:02:00.000Z',
        lastSeen: '2026-11-25T14:02:00.000Z',
        link: `http://127.0.0.1:4000/f/${factoryId}/reports/issues/${ISSUE}`,
        // Nobody counted into it (no event of it named a person): counts of zero, and no companies read.
        affected: { contacts: 0, companies: 0, visitors: 0, notInCrm: 0 },
      },
    });
    const log = await control()({ operation: 'alerts.deliveries', factoryId });
    expect(log.body.deliveries).toHaveLength(1);
    expect(log.body.deliveries[0]).toMatchObject({
      type: 'issue.created',
      issueId: ISSUE,
      status: 'delivered',
      attempts: 1,
      httpStatus: 204,
      latencyMs: expect.any(Number),
    });
  });

  test('a failing receiver is retried with the same webhook-id, the first retry due within 10 s; delivered at the third attempt, the log holds each attempt', async () => {
    const factoryId = newFactoryId('alretry');
    const target = await receiver((n) => (n <= 2 ? 503 : 200));
    const { destinationId, secret } = await addDestination(factoryId, target.url);
    const queue = new CapturingQueue();
    await notifierWith(queue)(streamEvent(streamRecord(undefined, issueItem(factoryId, ISSUE))));
    const clock = { ms: Date.now() };
    const { queue: retries, run } = deliverer(clock);
    let next = queue.take()[0];
    const delays: number[] = [];
    while (next) {
      await run(next.message);
      next = retries.take()[0];
      if (next) {
        delays.push(next.delaySeconds);
        clock.ms += next.delaySeconds * 1000;
      }
    }
    expect(delays).toEqual([5, 300]);
    expect(target.verifiedWith(secret, (entry) => Number(entry.headers['webhook-timestamp']) * 1000)).toHaveLength(3);
    expect(new Set(target.received.map((entry) => entry.headers['webhook-id'])).size).toBe(1);
    const [delivery] = (await store.deliveries(factoryId, destinationId, { limit: 5 })).deliveries;
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 3 });
    expect(delivery!.history.map((attempt) => attempt.status)).toEqual([503, 503, 200]);
    const destination = (await store.destination(factoryId, destinationId)) as Destination;
    expect(destination.failingSince).toBeUndefined();
    expect(destination.lastSuccessAt).toBeDefined();
  });

  test(`a delivery failing for about 24 hours gives up after ${MAX_ATTEMPTS} attempts and disables its destination, saying why; the next alert makes no delivery to it`, async () => {
    const factoryId = newFactoryId('aldead');
    const target = await receiver(() => 500);
    const { destinationId } = await addDestination(factoryId, target.url);
    const queue = new CapturingQueue();
    const notifier = notifierWith(queue);
    await notifier(streamEvent(streamRecord(undefined, issueItem(factoryId, ISSUE))));
    const start = Date.now();
    const clock = { ms: start };
    const { queue: retries, run } = deliverer(clock);
    let next = queue.take()[0];
    while (next) {
      await run(next.message);
      next = retries.take()[0];
      if (next) clock.ms += next.delaySeconds * 1000;
    }
    expect(target.received).toHaveLength(MAX_ATTEMPTS);
    expect(clock.ms - start).toBeLessThanOrEqual(24 * 3_600_000);
    const [delivery] = (await store.deliveries(factoryId, destinationId, { limit: 5 })).deliveries;
    expect(delivery).toMatchObject({
      status: 'failed',
      attempts: MAX_ATTEMPTS,
      reason: expect.stringContaining(`gave up after ${MAX_ATTEMPTS} attempts: answered 500`),
    });
    const list = await control()({ operation: 'alerts.list', factoryId });
    expect(list.body.destinations[0]).toMatchObject({
      status: 'disabled',
      disabled: { by: 'alerts (automatic)', reason: expect.stringContaining('every delivery failed since') },
    });

    await notifier(streamEvent(streamRecord(undefined, issueItem(factoryId, 'iss_99999999999999999999'))));
    expect(queue.take()).toEqual([]);
  });

  test('a destination whose host now resolves to a private address is refused on a deployed configuration: nothing is sent, no retry, the reason logged', async () => {
    const factoryId = newFactoryId('alpriv');
    const resolveTo =
      (address: string): Resolve =>
      async () => [{ address, family: 4 }];
    const added = await control(DEPLOYED_POLICY, resolveTo('93.184.216.34'))({ operation: 'alerts.add', factoryId, url: 'https://hooks.example.com/contacts' });
    expect(added.status).toBe(200);
    const refusedAtAdd = await control(
      DEPLOYED_POLICY,
      resolveTo('192.168.7.7'),
    )({ operation: 'alerts.add', factoryId, url: 'https://intranet.example.com/hook' });
    expect(refusedAtAdd).toMatchObject({ status: 400, body: { error: expect.stringContaining('resolves to 192.168.7.7, a private address') } });

    const queue = new CapturingQueue();
    await notifierWith(queue)(streamEvent(streamRecord(undefined, issueItem(factoryId, ISSUE))));
    const { queue: retries, run } = deliverer({ ms: Date.now() }, DEPLOYED_POLICY, resolveTo('169.254.169.254'));
    await run(queue.take()[0]!.message);
    expect(retries.take()).toEqual([]);
    const [delivery] = (await store.deliveries(factoryId, added.body.destinationId, { limit: 1 })).deliveries;
    expect(delivery).toMatchObject({
      status: 'failed',
      attempts: 1,
      reason: expect.stringContaining('refused: hooks.example.com resolves to 169.254.169.254, a cloud metadata address'),
    });
  });

  test("a regression and a spike each make one delivery, with what happened in the payload; the spike follows the factory's settings", async () => {
    const factoryId = newFactoryId('alrs');
    const target = await receiver();
    const { secret } = await addDestination(factoryId, target.url);
    expect((await control()({ operation: 'alerts.configure', factoryId, spikeFloor: 30, spikeMultiple: 4 })).status).toBe(200);
    const bucket = Date.UTC(2026, 10, 25, 14, 0, 0);
    const resolved = issueItem(factoryId, ISSUE, { status: 'resolved', count: 10, m5: { [periodKey('m5', bucket - 300_000)]: 10 } });
    const regressed = {
      ...resolved,
      status: 'open',
      count: 11,
      regressions: 1,
      regressedAt: '2026-11-25T14:01:00.000Z',
      m5: { [periodKey('m5', bucket - 300_000)]: 10, [periodKey('m5', bucket)]: 1 },
    };
    const under = { ...regressed, count: 39, m5: { [periodKey('m5', bucket - 300_000)]: 10, [periodKey('m5', bucket)]: 29 } };
    const spiking = { ...under, count: 45, m5: { [periodKey('m5', bucket - 300_000)]: 10, [periodKey('m5', bucket)]: 35 } };
    const queue = new CapturingQueue();
    const notifier = notifierWith(queue);
    const records = [streamRecord(resolved, regressed), streamRecord(regressed, under), streamRecord(under, spiking)];
    await notifier(streamEvent(...records));
    await notifier(streamEvent(...records));
    const { run } = deliverer({ ms: Date.now() });
    for (const { message } of queue.take()) await run(message);

    const bodies = target.verifiedWith(secret).map((entry) => JSON.parse(entry.body));
    expect(bodies.map((body) => body.type)).toEqual(['issue.regressed', 'issue.spiking']);
    expect(bodies[0].data).toMatchObject({ regressions: 1, regressedAt: '2026-11-25T14:01:00.000Z', status: 'open', count: 11 });
    expect(bodies[1].data.spike).toEqual({ bucketStart: new Date(bucket).toISOString(), events: 35, threshold: 30, baselinePerFiveMinutes: 0.83 });
  });

  test('the same record handled by two containers at once stores one alert and one delivery, and the receiver gets one POST', async () => {
    const factoryId = newFactoryId('alrace');
    const target = await receiver();
    await addDestination(factoryId, target.url);
    const queue = new CapturingQueue();
    const record = streamRecord(undefined, issueItem(factoryId, ISSUE));
    await Promise.all(Array.from({ length: 6 }, () => notifierWith(queue)(streamEvent(record))));
    const { run } = deliverer({ ms: Date.now() });
    await Promise.all(queue.take().map(({ message }) => run(message)));
    expect(target.received).toHaveLength(1);
    expect((await control()({ operation: 'alerts.deliveries', factoryId })).body.deliveries).toHaveLength(1);
  });

  test('storage trouble in the middle of a batch answers that record as failed, so the batch is retried from it', async () => {
    const factoryId = newFactoryId('alfail');
    const queue = new CapturingQueue();
    const failing = createNotifierHandler(
      {
        store: Object.assign(Object.create(store) as typeof store, { destinations: async () => Promise.reject(new Error('DynamoDB is away')) }),
        queue,
        linkBase: 'http://x',
      },
      issueChangeOf,
      silent,
    );
    const quiet = streamRecord(issueItem(factoryId, ISSUE), { ...issueItem(factoryId, ISSUE), status: 'ignored' });
    const fresh = streamRecord(undefined, issueItem(factoryId, 'iss_11111111111111111111'));
    const answer = await failing(streamEvent(quiet, fresh));
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: fresh.dynamodb!.SequenceNumber }] });
  });
});
