import { withBatchMetrics } from '../infrastructure/observability/batch-metrics';
import { loggerFromEnv } from '../infrastructure/observability/logger';
import { metricsOptionsFromEnv } from '../infrastructure/observability/metrics';
import { NOTIFIER_SERVICE_NAME } from '../infrastructure/observability/names';
import { createDocumentClient, dynamoConfigFromEnv } from '../infrastructure/store/dynamo-client';
import { tableNamesFromEnv } from '../infrastructure/store/schema';
import { issueChangeOf } from '../infrastructure/store/reports/stream-images';
import { DynamoAffectedPairs } from '../infrastructure/store/reports/affected-items';
import { alertStoreOf, linkBaseFromEnv, platformTopicFromEnv, sqsQueueFromEnv } from './alerts-wiring';
import { createNotifierHandler } from './notifier';

/**
 * The notifier Lambda on the reports table's stream (lib/alerts.ts), configured by its environment. Once per container.
 * Its batches are counted by version (failed items included): what its
 * deployment's failed-items alarm reads (lib/gradual-deployment.ts).
 */
const doc = createDocumentClient(dynamoConfigFromEnv());

export const handler = withBatchMetrics(
  createNotifierHandler(
    {
      store: alertStoreOf(doc, tableNamesFromEnv().alerts),
      queue: sqsQueueFromEnv(),
      topic: platformTopicFromEnv(),
      linkBase: linkBaseFromEnv(),
      affected: new DynamoAffectedPairs(doc, { reports: tableNamesFromEnv().reports }),
    },
    issueChangeOf,
    loggerFromEnv(process.env, NOTIFIER_SERVICE_NAME),
  ),
  metricsOptionsFromEnv(process.env, NOTIFIER_SERVICE_NAME),
);
