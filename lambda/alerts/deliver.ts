import { retryDelaySeconds } from './retry-schedule';
import type { AlertStore, AttemptRecord, Delivery, DeliveryMessage, DeliveryQueue, Destination } from './ports';
import { webhookHeaders } from './signature';
import type { SendResult, WebhookSender } from './webhook-sender';

/** Longest delay one queued message may have (SQS's limit): longer waits are several hops. */
export const MAX_HOP_SECONDS = 900;
/** An attempt holds its delivery this long: the 5 s send and its writes, with room to spare. */
const LEASE_MS = 60_000;

export interface DelivererDependencies {
  store: AlertStore;
  queue: DeliveryQueue;
  send: WebhookSender;
  now?: () => Date;
  random?: () => number;
}

export const USER_AGENT = 'contacts-service-webhooks/1';

/** The secrets that sign now: the current one, and the previous one while its overlap lasts. */
export function signingSecrets(destination: Destination, now: Date): string[] {
  const previous =
    destination.previousSecret !== undefined && destination.previousSecretUntil !== undefined && destination.previousSecretUntil > now.toISOString();
  return previous ? [destination.secret, destination.previousSecret as string] : [destination.secret];
}

/** One signed POST of a delivery's body, and the record of it for the log. */
export async function attemptOnce(
  send: WebhookSender,
  destination: Destination,
  delivery: Pick<Delivery, 'webhookId' | 'body'>,
  attempt: number,
  now: Date,
): Promise<{ result: SendResult; record: AttemptRecord }> {
  const headers = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    ...webhookHeaders(signingSecrets(destination, now), delivery.webhookId, Math.floor(now.getTime() / 1000), delivery.body),
  };
  const result = await send({ url: destination.url, headers, body: delivery.body });
  const record: AttemptRecord = {
    attempt,
    at: now.toISOString(),
    latencyMs: result.latencyMs,
    ...(result.status === undefined ? {} : { status: result.status }),
    ...(result.error === undefined ? {} : { error: result.error }),
    ...(result.answer === undefined || result.answer === '' ? {} : { answer: result.answer }),
  };
  return { result, record };
}

export type AttemptOutcome = 'delivered' | 'retrying' | 'failed' | 'skipped' | 'deferred' | 'stale';

const describe = (record: AttemptRecord) => record.error ?? `answered ${String(record.status)}`;

/**
 * One queued attempt of a delivery (docs/alerts.md#retries). A message that
 * is early (a long wait made of several hops) is queued again for the rest
 * of the wait; a destination removed or disabled meanwhile ends the delivery
 * as skipped; otherwise the attempt is taken with a conditional write (so a
 * message SQS delivers twice sends once), the POST is made, and the delivery
 * ends delivered, waits for its next attempt, or has failed for good: then,
 * if the destination has had no success since this delivery's first
 * attempt, about 24 hours of failures, it is disabled, saying why.
 */
export async function attemptDelivery(message: DeliveryMessage, deps: DelivererDependencies): Promise<AttemptOutcome> {
  const now = deps.now?.() ?? new Date();
  const at = now.toISOString();
  const ref = { factoryId: message.factoryId, destinationId: message.destinationId, sk: message.sk };
  const delivery = await deps.store.delivery(ref);
  // Attempt n is due once attempt n-1 ended, or when attempt n was taken and its lease ran out (its run stopped).
  const takenOver = delivery?.attempts === message.attempt && delivery.leaseUntil !== undefined && delivery.leaseUntil < at;
  if (delivery?.status !== 'pending' || !(delivery.attempts === message.attempt - 1 || takenOver)) return 'stale';
  const waitMs = delivery.nextAttemptAt === undefined ? 0 : Date.parse(delivery.nextAttemptAt) - now.getTime();
  if (waitMs > 1000) {
    await deps.queue.enqueue(message, Math.min(MAX_HOP_SECONDS, Math.ceil(waitMs / 1000)));
    return 'deferred';
  }
  const destination = await deps.store.destination(message.factoryId, message.destinationId);
  if (!destination || destination.disabled) {
    await deps.store.skipDelivery(ref, destination ? `destination disabled: ${destination.disabled?.reason ?? ''}` : 'destination removed');
    return 'skipped';
  }
  const claimed = await deps.store.claimAttempt(ref, message.attempt, at, new Date(now.getTime() + LEASE_MS).toISOString());
  if (!claimed) return 'stale';

  const { result, record } = await attemptOnce(deps.send, destination, claimed, message.attempt, now);
  if (result.ok) {
    await deps.store.finishAttempt(ref, message.attempt, { status: 'delivered', record });
    if (destination.failingSince !== undefined) await deps.store.noteSuccess(message.factoryId, message.destinationId, at);
    return 'delivered';
  }
  if (destination.failingSince === undefined) await deps.store.noteFailure(message.factoryId, message.destinationId, at);
  // A refused destination (a private address) is refused again at every attempt: no retry.
  const delay = result.refused ? undefined : retryDelaySeconds(message.attempt, deps.random);
  if (delay !== undefined) {
    const nextAttemptAt = new Date(now.getTime() + delay * 1000).toISOString();
    await deps.store.finishAttempt(ref, message.attempt, { status: 'pending', record, nextAttemptAt });
    await deps.queue.enqueue({ ...message, attempt: message.attempt + 1 }, Math.min(MAX_HOP_SECONDS, delay));
    return 'retrying';
  }
  const reason = result.refused ? describe(record) : `gave up after ${message.attempt} attempts: ${describe(record)}`;
  await deps.store.finishAttempt(ref, message.attempt, { status: 'failed', record, reason });
  const since = claimed.firstAttemptAt ?? at;
  if (!result.refused) {
    await deps.store.disableIfFailingSince(message.factoryId, message.destinationId, since, {
      at,
      by: 'alerts (automatic)',
      reason: `every delivery failed since ${since} (the last one gave up after ${message.attempt} attempts: ${describe(record)})`,
    });
  }
  return 'failed';
}
