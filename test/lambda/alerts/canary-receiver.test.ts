import { createCanaryReceiver, TOLERANCE_SECONDS, verifiedDelivery } from '../../../lambda/alerts/canary-receiver';
import { newWebhookSecret, webhookHeaders } from '../../../lambda/alerts/signature';

const SECRET = newWebhookSecret();
const NOW = 1_900_000_000;
const BODY = '{"type":"pre-traffic-check"}';
const signed = (secret: string, at: number, sentBody = BODY) => ({ headers: webhookHeaders([secret], 'msg_1', at, BODY), body: sentBody });

describe("the stack's canary receiver", () => {
  test("verifies a delivery signed with its secret within 5 minutes, as a customer's receiver would", () => {
    expect(verifiedDelivery(signed(SECRET, NOW), SECRET, NOW)).toBe(true);
    expect(verifiedDelivery(signed(SECRET, NOW - TOLERANCE_SECONDS), SECRET, NOW)).toBe(true);
  });

  test('refuses a delivery unsigned, signed with another secret, tampered with, or older than 5 minutes', () => {
    expect(verifiedDelivery({ headers: {}, body: BODY }, SECRET, NOW)).toBe(false);
    expect(verifiedDelivery(signed(newWebhookSecret(), NOW), SECRET, NOW)).toBe(false);
    expect(verifiedDelivery(signed(SECRET, NOW, '{"type":"other"}'), SECRET, NOW)).toBe(false);
    expect(verifiedDelivery(signed(SECRET, NOW - 301), SECRET, NOW)).toBe(false);
  });

  test('reads a base64 body as its bytes; one signature of several is enough (a rotation)', () => {
    const headers = webhookHeaders([newWebhookSecret(), SECRET], 'msg_2', NOW, BODY);
    expect(verifiedDelivery({ headers, body: Buffer.from(BODY).toString('base64'), isBase64Encoded: true }, SECRET, NOW)).toBe(true);
  });

  test('answers 204 to a verified delivery and 401 to anything else, or to everything without a secret', async () => {
    const receiver = createCanaryReceiver(SECRET, () => NOW * 1000);
    expect(await receiver(signed(SECRET, NOW))).toEqual({ statusCode: 204 });
    expect(await receiver({ body: BODY })).toEqual({ statusCode: 401 });
    expect(await createCanaryReceiver(undefined, () => NOW * 1000)(signed(SECRET, NOW))).toEqual({ statusCode: 401 });
  });
});
