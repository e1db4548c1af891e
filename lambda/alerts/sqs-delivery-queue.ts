import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { MAX_HOP_SECONDS } from './deliver';
import type { DeliveryMessage, DeliveryQueue } from './ports';

/**
 * Deliveries on AWS: one SQS message per attempt, delayed by the wait before
 * it (at most SQS's 15 minutes a hop: a longer wait is queued again for the
 * rest when it arrives early). Why a queue rather than a schedule:
 * docs/alerts.md#retries.
 */
export class SqsDeliveryQueue implements DeliveryQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async enqueue(message: DeliveryMessage, delaySeconds: number): Promise<void> {
    await this.sqs.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: JSON.stringify(message),
        DelaySeconds: Math.max(0, Math.min(MAX_HOP_SECONDS, Math.round(delaySeconds))),
      }),
    );
  }
}

/** A queued message's body read back; undefined when it is not one of ours. */
export function deliveryMessageOf(body: string): DeliveryMessage | undefined {
  try {
    const value = JSON.parse(body) as Partial<DeliveryMessage>;
    const ok =
      typeof value.factoryId === 'string' &&
      typeof value.destinationId === 'string' &&
      typeof value.sk === 'string' &&
      Number.isInteger(value.attempt) &&
      (value.attempt ?? 0) >= 1;
    return ok ? (value as DeliveryMessage) : undefined;
  } catch {
    return undefined;
  }
}
