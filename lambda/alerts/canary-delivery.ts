import { CANARY_FACTORY_ID } from '../kernel/canary';
import { selfCheckAnswer, type SelfCheckAnswer } from '../infrastructure/deploy/self-check';
import { USER_AGENT } from './deliver';
import { testWebhookId, webhookHeaders } from './signature';
import type { WebhookSender } from './webhook-sender';

/**
 * The event the pre-traffic hook sends the deliverer (docs/deploying.md#the-pre-traffic-check):
 * one signed delivery to the stack's canary receiver. SQS never sends it (its
 * events carry `Records`), and only the hook may invoke a version directly.
 */
export const CANARY_DELIVERY_EVENT = { preTrafficSelfCheck: 'canary-delivery' } as const;

export function isCanaryDeliveryEvent(event: unknown): boolean {
  return typeof event === 'object' && event !== null && (event as Record<string, unknown>).preTrafficSelfCheck === CANARY_DELIVERY_EVENT.preTrafficSelfCheck;
}

/** The destination the stack owns for this check: its canary receiver's address and the secret it verifies with. */
export interface CanaryDestination {
  url: string;
  secret: string;
}

/**
 * One delivery of the canary factory, made as every delivery is: signed
 * with the destination's secret (Standard Webhooks headers), sent by the
 * deliverer's own sender (the outbound address guard, DNS, TLS, the 5 s
 * limit). 200 when the receiver verified it and answered 2xx; 502 naming
 * what came back otherwise; 500 when the stack gave no destination.
 */
export async function canaryDelivery(send: WebhookSender, destination: CanaryDestination | undefined, now: Date = new Date()): Promise<SelfCheckAnswer> {
  if (!destination)
    return selfCheckAnswer(500, {
      checked: 'canary-delivery',
      error: 'CANARY_RECEIVER_URL and CANARY_WEBHOOK_SECRET are not set: the stack gives them to the deliverer',
    });
  const body = JSON.stringify({ type: 'pre-traffic-check', factoryId: CANARY_FACTORY_ID, at: now.toISOString() });
  const headers = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    ...webhookHeaders([destination.secret], testWebhookId(), Math.floor(now.getTime() / 1000), body),
  };
  const result = await send({ url: destination.url, headers, body });
  if (result.ok) return selfCheckAnswer(200, { checked: 'canary-delivery', status: result.status, latencyMs: result.latencyMs });
  return selfCheckAnswer(502, { checked: 'canary-delivery', error: result.error ?? `answered ${String(result.status)}`, latencyMs: result.latencyMs });
}
