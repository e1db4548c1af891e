import { createDocumentClient, dynamoConfigFromEnv } from '../../infrastructure/store/dynamo-client';
import { insertedEvents } from '../../infrastructure/store/reports/stream-records';
import { DynamoTallyStore } from '../../infrastructure/store/reports/tally-writes';
import { tableNamesFromEnv } from '../../infrastructure/store/schema';
import type { TallyDependencies } from './tally';

/** The tally's dependencies from the function's environment, wired once per container. */
export function tallyFromEnv(env: NodeJS.ProcessEnv = process.env): TallyDependencies {
  return { store: new DynamoTallyStore(createDocumentClient(dynamoConfigFromEnv(env)), tableNamesFromEnv(env).reports), insertedEvents };
}
