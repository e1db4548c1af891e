import { timingSafeEqual } from 'node:crypto';
import { signature } from './signature';

/**
 * The stack's canary receiver (docs/deploying.md#the-pre-traffic-check): the
 * webhook destination the deliverer's pre-traffic probe delivers to. It
 * checks the delivery as a customer's receiver would (docs/alerts.md#verifying-a-delivery)
 * and answers 204, or 401 to anything not signed with its secret or more
 * than 5 minutes old. It keeps nothing and calls nothing.
 */
export const TOLERANCE_SECONDS = 300;

/** A function URL call (payload format 2.0), as much of it as the receiver reads. */
export interface ReceiverEvent {
  headers?: Record<string, string | undefined>;
  body?: string;
  isBase64Encoded?: boolean;
}

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** True when the delivery carries a signature of `secret` over its id, timestamp and body, made within the tolerance. */
export function verifiedDelivery(event: ReceiverEvent, secret: string, nowSeconds: number): boolean {
  const headers = event.headers ?? {};
  const id = headers['webhook-id'];
  const timestamp = Number(headers['webhook-timestamp']);
  const signatures = (headers['webhook-signature'] ?? '').split(' ');
  if (!id || !Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > TOLERANCE_SECONDS) return false;
  const body = event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64').toString('utf8') : (event.body ?? '');
  const expected = signature(secret, id, timestamp, body);
  return signatures.some((candidate) => same(candidate, expected));
}

export function createCanaryReceiver(secret: string | undefined, now: () => number = Date.now) {
  return async (event: ReceiverEvent): Promise<{ statusCode: number }> => ({
    statusCode: secret && verifiedDelivery(event, secret, Math.floor(now() / 1000)) ? 204 : 401,
  });
}
