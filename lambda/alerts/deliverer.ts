import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { JsonLogger } from '../infrastructure/observability/logger';
import { attemptDelivery, type DelivererDependencies } from './deliver';
import { deliveryMessageOf } from './sqs-delivery-queue';

/**
 * The deliverer: takes queued attempts (SQS on AWS, npm start's timers
 * locally, the same messages) and makes each (./deliver.ts). Messages of one
 * batch run side by side: each is one destination's POST of at most 5 s. A
 * message whose attempt failed to be recorded (storage trouble) is answered
 * as failed, so SQS gives it again after its visibility timeout; a message
 * that is not ours is logged and dropped.
 */
export function createDelivererHandler(deps: DelivererDependencies, logger: JsonLogger) {
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failures = await Promise.all(
      event.Records.map(async (record) => {
        const message = deliveryMessageOf(record.body);
        if (!message) {
          logger.warn('not a delivery message: dropped', { messageId: record.messageId });
          return [];
        }
        try {
          const outcome = await attemptDelivery(message, deps);
          logger.info('delivery attempt', { factoryId: message.factoryId, destinationId: message.destinationId, attempt: message.attempt, outcome });
          return [];
        } catch (error) {
          logger.error('delivery attempt failed: retried by the queue', {
            factoryId: message.factoryId,
            destinationId: message.destinationId,
            attempt: message.attempt,
            errorClass: error instanceof Error ? error.name : typeof error,
            error: error instanceof Error ? error.message : String(error),
          });
          return [{ itemIdentifier: record.messageId }];
        }
      }),
    );
    return { batchItemFailures: failures.flat() };
  };
}
