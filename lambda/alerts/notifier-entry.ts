import { withBatchMetrics } from '../infrastructure/observability/batch-metrics';
import { loggerFromEnv } from '../infrastructure/observability/logger';
import { metricsOptionsFromEnv } from '../infrastructure/observability/metrics';
import { NOTIFIER_SERVICE_NAME } from '../infrastructure/observability/names';
import { createDocumentClient, dynamoConfigFromEnv } from '../infrastructure/store/dynamo-client';
import { tableNamesFromEnv } from '../infrastructure/store/schema';
import { issueChangeOf } from '../infrastructure/store/reports/stream-images';
import { alertStoreOf, linkBaseFromEnv, platformTopicFromEnv, sqsQueueFromEnv } from './alerts-wiring';
import { createNotifierHandler } from './notifier';

/**
 * The notifier Lambda on the reports table's stream (lib/alerts.ts), configured by its environment. Once per container.
 * Its batches are counted by version (failed items included): what its
 * deployment's failed-items alarm reads (lib/gradual-deployment.ts).
 */
export const handler = withBatchMetrics(
  createNotifierHandler(
    {
      store: alertStoreOf(createDocumentClient(dynamoConfigFromEnv()), tableNamesFromEnv().alerts),
      queue: sqsQueueFromEnv(),
      topic: platformTopicFromEnv(),
      linkBase: linkBaseFromEnv(),
    },
    issueChangeOf,
    loggerFromEnv(process.env, NOTIFIER_SERVICE_NAME),
  ),
  metricsOptionsFromEnv(process.env, NOTIFIER_SERVICE_NAME),
);
