import { attemptDelivery, MAX_HOP_SECONDS, signingSecrets, type DelivererDependencies } from '../../../lambda/alerts/deliver';
import type { Delivery, Destination } from '../../../lambda/alerts/ports';
import { newWebhookSecret } from '../../../lambda/alerts/signature';
import type { SendResult, WebhookRequest } from '../../../lambda/alerts/webhook-sender';
import { MemoryAlertStore } from '../../../lambda/infrastructure/memory/memory-alert-store';
import { CapturingQueue } from '../../support/alerts';

/** One queued attempt of a delivery, on the in-memory alert store, a capturing queue and a sender that answers as told. */
const T0 = Date.parse('2026-11-21T09:00:00.000Z');
const DESTINATION: Destination = {
  factoryId: 'fac_a',
  destinationId: 'dst_0000000000000001',
  url: 'https://hooks.example.com/in',
  types: [],
  createdAt: new Date(T0).toISOString(),
  createdBy: 'arn:op',
  secret: newWebhookSecret(),
};
const SK = `${new Date(T0).toISOString()}#new:iss_1`;
const REF = { factoryId: 'fac_a', destinationId: DESTINATION.destinationId, sk: SK };

async function setUp(answers: SendResult[], destination: Destination = DESTINATION) {
  const store = new MemoryAlertStore();
  await store.addDestination(destination);
  const delivery: Delivery = {
    ...REF,
    alertId: 'new:iss_1',
    webhookId: 'msg_1',
    type: 'issue.created',
    issueId: 'iss_1',
    occurredAt: new Date(T0).toISOString(),
    body: '{"type":"issue.created"}',
    status: 'pending',
    attempts: 0,
    createdAt: new Date(T0).toISOString(),
    nextAttemptAt: new Date(T0).toISOString(),
    history: [],
    expiresAt: T0 / 1000 + 86_400,
  };
  await store.createDelivery(delivery);
  const queue = new CapturingQueue();
  const sent: WebhookRequest[] = [];
  let clock = T0;
  const deps: DelivererDependencies = {
    store,
    queue,
    send: async (request) => {
      sent.push(request);
      return answers[Math.min(sent.length, answers.length) - 1] as SendResult;
    },
    now: () => new Date(clock),
    random: () => 0,
  };
  return { store, queue, sent, deps, advance: (ms: number) => (clock += ms) };
}

const ok: SendResult = { ok: true, status: 204, latencyMs: 5 };
const down: SendResult = { ok: false, status: 503, latencyMs: 5, error: 'answered 503' };

describe('one attempt of a delivery', () => {
  test('a 2xx delivers it: signed POST, the attempt recorded', async () => {
    const { store, sent, deps } = await setUp([ok]);
    expect(await attemptDelivery({ ...REF, attempt: 1 }, deps)).toBe('delivered');
    expect(sent[0]!.headers).toMatchObject({
      'webhook-id': 'msg_1',
      'content-type': 'application/json',
      'user-agent': expect.stringMatching(/^contacts-service-webhooks/),
    });
    expect(await store.delivery(REF)).toMatchObject({ status: 'delivered', attempts: 1, history: [{ attempt: 1, status: 204 }] });
  });

  test("a failure waits for the next attempt, queued after the schedule's delay", async () => {
    const { store, queue, deps } = await setUp([down]);
    expect(await attemptDelivery({ ...REF, attempt: 1 }, deps)).toBe('retrying');
    expect(queue.take()).toEqual([{ message: { ...REF, attempt: 2 }, delaySeconds: 5 }]);
    expect(await store.delivery(REF)).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: new Date(T0 + 5000).toISOString() });
    expect((await store.destination('fac_a', DESTINATION.destinationId))?.failingSince).toBeDefined();
  });

  test('the same message twice sends once: the second is stale', async () => {
    const { sent, deps } = await setUp([down]);
    await attemptDelivery({ ...REF, attempt: 1 }, deps);
    expect(await attemptDelivery({ ...REF, attempt: 1 }, deps)).toBe('stale');
    expect(sent).toHaveLength(1);
  });

  test('a message early for its attempt is queued again for the rest of the wait, in hops of at most 15 minutes', async () => {
    const { store, queue, sent, deps } = await setUp([down]);
    await attemptDelivery({ ...REF, attempt: 1 }, deps);
    queue.take();
    expect(await attemptDelivery({ ...REF, attempt: 2 }, deps)).toBe('deferred');
    expect(queue.take()).toEqual([{ message: { ...REF, attempt: 2 }, delaySeconds: 5 }]);
    // A wait of three hours (a later attempt's) goes in hops of the queue's longest delay.
    await store.claimAttempt(REF, 2, new Date(T0).toISOString(), new Date(T0 + 1).toISOString());
    await store.finishAttempt(REF, 2, {
      status: 'pending',
      record: { attempt: 2, at: new Date(T0).toISOString(), latencyMs: 1 },
      nextAttemptAt: new Date(T0 + 3 * 3_600_000).toISOString(),
    });
    expect(await attemptDelivery({ ...REF, attempt: 3 }, deps)).toBe('deferred');
    expect(queue.take()).toEqual([{ message: { ...REF, attempt: 3 }, delaySeconds: MAX_HOP_SECONDS }]);
    expect(sent).toHaveLength(1);
  });

  test('the last attempt failing fails the delivery for good and disables a destination that has had no success since', async () => {
    const { store, deps } = await setUp([down]);
    const failingDestination = await store.destination('fac_a', DESTINATION.destinationId);
    expect(failingDestination?.disabled).toBeUndefined();
    // As if seven attempts had failed before: the eighth is the last.
    await store.claimAttempt(REF, 1, new Date(T0).toISOString(), new Date(T0 + 1).toISOString());
    for (let attempt = 1; attempt < 8; attempt += 1) {
      if (attempt > 1) await store.claimAttempt(REF, attempt, new Date(T0).toISOString(), new Date(T0 + 1).toISOString());
      await store.finishAttempt(REF, attempt, {
        status: 'pending',
        record: { attempt, at: new Date(T0).toISOString(), latencyMs: 1, status: 503 },
        nextAttemptAt: new Date(T0).toISOString(),
      });
    }
    expect(await attemptDelivery({ ...REF, attempt: 8 }, deps)).toBe('failed');
    expect(await store.delivery(REF)).toMatchObject({ status: 'failed', reason: 'gave up after 8 attempts: answered 503' });
    expect((await store.destination('fac_a', DESTINATION.destinationId))?.disabled).toMatchObject({ by: 'alerts (automatic)' });
  });

  test('a destination refused by the address guard fails at once, never retried, never disabled for it', async () => {
    const { store, queue, deps } = await setUp([{ ok: false, latencyMs: 1, refused: true, error: 'a private address' }]);
    expect(await attemptDelivery({ ...REF, attempt: 1 }, deps)).toBe('failed');
    expect(queue.take()).toEqual([]);
    expect((await store.delivery(REF))?.reason).toBe('a private address');
    expect((await store.destination('fac_a', DESTINATION.destinationId))?.disabled).toBeUndefined();
  });

  test('a destination disabled or removed meanwhile ends the delivery as skipped, nothing sent', async () => {
    const { store, sent, deps } = await setUp([ok]);
    await store.setDisabled('fac_a', DESTINATION.destinationId, { at: 'x', by: 'op', reason: 'maintenance' });
    expect(await attemptDelivery({ ...REF, attempt: 1 }, deps)).toBe('skipped');
    expect(await store.delivery(REF)).toMatchObject({ status: 'skipped', reason: 'destination disabled: maintenance' });
    expect(sent).toEqual([]);
  });
});

describe('the secrets that sign', () => {
  test('the current one, and the previous one while its overlap lasts', () => {
    const rotated = { ...DESTINATION, previousSecret: 'whsec_old', previousSecretUntil: '2026-11-22T09:00:00.000Z' };
    expect(signingSecrets(rotated, new Date('2026-11-21T09:00:00Z'))).toEqual([DESTINATION.secret, 'whsec_old']);
    expect(signingSecrets(rotated, new Date('2026-11-22T09:00:01Z'))).toEqual([DESTINATION.secret]);
    expect(signingSecrets(DESTINATION, new Date())).toEqual([DESTINATION.secret]);
  });
});
