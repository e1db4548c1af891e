import { CANARY_DELIVERY_EVENT, canaryDelivery, isCanaryDeliveryEvent } from '../../../lambda/alerts/canary-delivery';
import { verifiedDelivery } from '../../../lambda/alerts/canary-receiver';
import { newWebhookSecret } from '../../../lambda/alerts/signature';
import type { WebhookRequest } from '../../../lambda/alerts/webhook-sender';

const SECRET = newWebhookSecret();
const NOW = new Date('2026-11-21T09:00:00Z');
const bodyOf = (answer: { body: string }) => JSON.parse(answer.body) as Record<string, unknown>;

describe("the deliverer's pre-traffic delivery", () => {
  test("one delivery signed with the destination's secret, which the canary receiver verifies: 200", async () => {
    const sent: WebhookRequest[] = [];
    const answer = await canaryDelivery(
      async (request) => {
        sent.push(request);
        return { ok: true, status: 204, latencyMs: 8 };
      },
      { url: 'https://receiver.example.com/', secret: SECRET },
      NOW,
    );
    expect([answer.statusCode, bodyOf(answer)]).toEqual([200, { checked: 'canary-delivery', status: 204, latencyMs: 8 }]);
    expect(verifiedDelivery({ headers: sent[0]!.headers, body: sent[0]!.body }, SECRET, NOW.getTime() / 1000)).toBe(true);
    expect(JSON.parse(sent[0]!.body)).toMatchObject({ type: 'pre-traffic-check', factoryId: 'fac_canary' });
  });

  test('a receiver that refuses is a 502 naming what came back', async () => {
    const answer = await canaryDelivery(async () => ({ ok: false, status: 401, latencyMs: 3 }), { url: 'https://r.example.com/', secret: SECRET }, NOW);
    expect([answer.statusCode, bodyOf(answer).error]).toEqual([502, 'answered 401']);
  });

  test('a stack that gave the deliverer no destination is a 500 saying what is missing', async () => {
    const answer = await canaryDelivery(async () => ({ ok: true, status: 204, latencyMs: 1 }), undefined, NOW);
    expect([answer.statusCode, bodyOf(answer).error]).toEqual([500, expect.stringMatching(/CANARY_RECEIVER_URL and CANARY_WEBHOOK_SECRET are not set/)]);
  });

  test("the hook's event is told from an SQS batch", () => {
    expect(isCanaryDeliveryEvent(CANARY_DELIVERY_EVENT)).toBe(true);
    expect(isCanaryDeliveryEvent({ Records: [] })).toBe(false);
    expect(isCanaryDeliveryEvent(null)).toBe(false);
  });
});
