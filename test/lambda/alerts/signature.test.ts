import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { newWebhookSecret, testWebhookId, webhookHeaders, webhookIdOf } from '../../../lambda/alerts/signature';

/**
 * Deliveries are signed as the Standard Webhooks specification says: the
 * project's own library (standardwebhooks on npm, pinned) verifies them.
 */
const body = JSON.stringify({ type: 'issue.created', timestamp: '2026-11-25T14:02:00.000Z', data: { issueId: 'iss_0123456789abcdef0123', count: 1 } });
const now = () => Math.floor(Date.now() / 1000);

test('a signed delivery verifies with the Standard Webhooks library, and the secret is whsec_ + base64 of 32 bytes', () => {
  const secret = newWebhookSecret();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  const headers = webhookHeaders([secret], webhookIdOf('new:iss_x:2026'), now(), body);
  expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
});

test('a body changed on the way, another secret or another id fails verification', () => {
  const secret = newWebhookSecret();
  const headers = webhookHeaders([secret], 'msg_1', now(), body);
  expect(() => new Webhook(secret).verify(body.replace('"count":1', '"count":2'), headers)).toThrow(WebhookVerificationError);
  expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow(WebhookVerificationError);
  expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_2' })).toThrow(WebhookVerificationError);
});

test('during a rotation both secrets sign: a receiver still on the previous secret and one on the new secret both verify', () => {
  const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
  const headers = webhookHeaders([current, previous], 'msg_1', now(), body);
  expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
  expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
  expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
});

test("an alert's webhook id is the same on every attempt and every destination (receivers drop repeats by it), and differs between alerts", () => {
  expect(webhookIdOf('new:iss_a:2026-11-25T14:02:00.000Z')).toBe(webhookIdOf('new:iss_a:2026-11-25T14:02:00.000Z'));
  expect(webhookIdOf('new:iss_a:2026-11-25T14:02:00.000Z')).not.toBe(webhookIdOf('regressed:iss_a:1'));
  expect(webhookIdOf('x')).toMatch(/^msg_[0-9a-f]{32}$/);
});

test("a test delivery's id is new every time, and says it is a test", () => {
  const [a, b] = [testWebhookId(), testWebhookId()];
  expect(a).toMatch(/^msg_test_[0-9a-f]{24}$/);
  expect(a).not.toBe(b);
});
