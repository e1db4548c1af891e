import { createHash, randomUUID } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { withGrouping } from '../../lambda/ingest/receive-events';
import type { StoredEvent } from '../../lambda/ingest/issues/stored-event';
import { DynamoTallyStore } from '../../lambda/infrastructure/store/reports/tally-writes';
import { padSequence } from '../../lambda/ingest/tally/exactly-once';
import { tallyBatch } from '../../lambda/ingest/tally/tally-batch';

/**
 * An issue with a history, for the trend's screenshot: a checkout error
 * seen a few times a day for two weeks, then a burst after a release this
 * morning, from a few hundred visitors. The events are counted by the
 * tally's own code (one stream batch per hour), as the stream would count
 * them; they are not stored as events (the screenshot shows the issue).
 */
export async function seedTrendDemo(doc: DynamoDBDocumentClient, reportsTable: string, factoryId: string, nowMs = Date.now()): Promise<string> {
  const hour = 3_600_000;
  const tally = new DynamoTallyStore(doc, reportsTable);
  let sequence = 0;
  let issueId = '';
  for (let back = 14 * 24; back >= 0; back -= 1) {
    const at = nowMs - back * hour;
    // A few a day, more in working hours; 10 hours ago a release, then a storm that fades.
    const base = new Date(at).getUTCHours() >= 8 && new Date(at).getUTCHours() < 18 ? 2 : back % 3 === 0 ? 1 : 0;
    const burst = back <= 10 ? Math.round(160 / (1 + (10 - back) * 0.6)) : 0;
    const events: StoredEvent[] = Array.from({ length: base + burst }, (_, n) =>
      withGrouping({
        factoryId,
        keyId: 'key_demo',
        origin: 'https://app.example.com',
        receivedAt: new Date(at - n * 1000).toISOString(),
        expiresAt: Math.floor(nowMs / 1000) + 90 * 86_400,
        writeToken: randomUUID(),
        eventId: randomUUID(),
        type: 'error',
        message: 'TypeError: card.brand is undefined',
        exception: { type: 'TypeError', value: 'card.brand is undefined' },
        release: back <= 10 ? 'web@2.5.0' : 'web@2.4.1',
        visitor: createHash('sha256')
          .update(`visitor ${(back * 7 + n) % 420}`)
          .digest('base64url')
          .slice(0, 8),
      }),
    );
    if (events.length === 0) continue;
    issueId = events[0]?.issueId ?? issueId;
    await tallyBatch(
      tally,
      'demo-shard',
      events.map((event) => ({ seq: padSequence(String((sequence += 1))), event })),
    );
  }
  return issueId;
}
