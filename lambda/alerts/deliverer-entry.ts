import { withBatchMetrics } from '../infrastructure/observability/batch-metrics';
import { loggerFromEnv } from '../infrastructure/observability/logger';
import { metricsOptionsFromEnv } from '../infrastructure/observability/metrics';
import { DELIVERER_SERVICE_NAME } from '../infrastructure/observability/names';
import { createDocumentClient, dynamoConfigFromEnv } from '../infrastructure/store/dynamo-client';
import { tableNamesFromEnv } from '../infrastructure/store/schema';
import { addressPolicyFromEnv, alertStoreOf, canaryDestinationFromEnv, sqsQueueFromEnv } from './alerts-wiring';
import { canaryDelivery, isCanaryDeliveryEvent } from './canary-delivery';
import type { SQSEvent } from 'aws-lambda';
import { createDelivererHandler } from './deliverer';
import { webhookSender } from './webhook-sender';

const send = webhookSender({ policy: addressPolicyFromEnv() });

/**
 * The deliverer's batches, counted by version (failed items included): what
 * its deployment's failed-items alarm reads (lib/gradual-deployment.ts).
 */
const deliverBatch = withBatchMetrics(
  createDelivererHandler(
    {
      store: alertStoreOf(createDocumentClient(dynamoConfigFromEnv()), tableNamesFromEnv().alerts),
      queue: sqsQueueFromEnv(),
      send,
    },
    loggerFromEnv(process.env, DELIVERER_SERVICE_NAME),
  ),
  metricsOptionsFromEnv(process.env, DELIVERER_SERVICE_NAME),
);
const canary = canaryDestinationFromEnv();

/**
 * The deliverer Lambda on the delivery queue (lib/alerts.ts), configured by
 * its environment once per container; the pre-traffic hook's canary
 * delivery (./canary-delivery.ts) is answered beside the queue's batches,
 * with the same sender.
 */
export const handler = (event: SQSEvent) => (isCanaryDeliveryEvent(event) ? canaryDelivery(send, canary) : deliverBatch(event));
