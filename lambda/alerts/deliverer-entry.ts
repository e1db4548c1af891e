import { loggerFromEnv } from '../observability/logger';
import { DELIVERER_SERVICE_NAME } from '../observability/names';
import { createDocumentClient, dynamoConfigFromEnv } from '../store/dynamo-client';
import { tableNamesFromEnv } from '../store/schema';
import { addressPolicyFromEnv, alertStoreOf, sqsQueueFromEnv } from './alerts-wiring';
import { createDelivererHandler } from './deliverer';
import { webhookSender } from './webhook-sender';

/** The deliverer Lambda on the delivery queue (lib/alerts.ts), configured by its environment. Once per container. */
export const handler = createDelivererHandler(
  {
    store: alertStoreOf(createDocumentClient(dynamoConfigFromEnv()), tableNamesFromEnv().alerts),
    queue: sqsQueueFromEnv(),
    send: webhookSender({ policy: addressPolicyFromEnv() }),
  },
  loggerFromEnv(process.env, DELIVERER_SERVICE_NAME),
);
