import { createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * Signing as the Standard Webhooks specification says
 * (docs/alerts.md#verifying-a-delivery): the secret is `whsec_` + base64 of
 * random bytes; each attempt sends `webhook-id`, `webhook-timestamp` (epoch
 * seconds of the attempt) and `webhook-signature`: `v1,` + base64 of
 * HMAC-SHA256 over `<id>.<timestamp>.<body>` keyed with the secret's bytes,
 * one per secret, separated by spaces (during a rotation, the new and the
 * previous secret both sign).
 */
export const SECRET_PREFIX = 'whsec_';
/** 32 random bytes: the specification asks for 24 to 64. */
const SECRET_BYTES = 32;

export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

export function signature(secret: string, webhookId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${webhookId}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** The three headers of one attempt, signed with every given secret. */
export function webhookHeaders(secrets: string[], webhookId: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    'webhook-id': webhookId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((secret) => signature(secret, webhookId, timestampSeconds, body)).join(' '),
  };
}

/** An alert's message id: the same for every attempt and every destination, so a receiver can drop what it already has. */
export function webhookIdOf(alertId: string): string {
  return `msg_${createHash('sha256').update(alertId).digest('hex').slice(0, 32)}`;
}

/** A test message's id: new for every test. */
export function testWebhookId(): string {
  return `msg_test_${randomBytes(12).toString('hex')}`;
}
