import { loggerFromEnv } from '../observability/logger';
import { NOTIFIER_SERVICE_NAME } from '../observability/names';
import { createDocumentClient, dynamoConfigFromEnv } from '../store/dynamo-client';
import { tableNamesFromEnv } from '../store/schema';
import { issueChangeOf } from '../store/reports/stream-images';
import { alertStoreOf, linkBaseFromEnv, platformTopicFromEnv, sqsQueueFromEnv } from './alerts-wiring';
import { createNotifierHandler } from './notifier';

/** The notifier Lambda on the reports table's stream (lib/alerts.ts), configured by its environment. Once per container. */
export const handler = createNotifierHandler(
  {
    store: alertStoreOf(createDocumentClient(dynamoConfigFromEnv()), tableNamesFromEnv().alerts),
    queue: sqsQueueFromEnv(),
    topic: platformTopicFromEnv(),
    linkBase: linkBaseFromEnv(),
  },
  issueChangeOf,
  loggerFromEnv(process.env, NOTIFIER_SERVICE_NAME),
);
