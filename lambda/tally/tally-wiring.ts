import { createDocumentClient, dynamoConfigFromEnv } from '../store/dynamo-client';
import { insertedEvents } from '../store/reports/stream-records';
import { DynamoTallyStore } from '../store/reports/tally-writes';
import { tableNamesFromEnv } from '../store/schema';
import type { TallyDependencies } from './tally';

/** The tally's dependencies from the function's environment, wired once per container. */
export function tallyFromEnv(env: NodeJS.ProcessEnv = process.env): TallyDependencies {
  return { store: new DynamoTallyStore(createDocumentClient(dynamoConfigFromEnv(env)), tableNamesFromEnv(env).reports), insertedEvents };
}
