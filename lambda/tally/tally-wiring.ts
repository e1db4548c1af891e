import { createDocumentClient, dynamoConfigFromEnv } from '../store/dynamo-client';
import { DynamoTallyStore } from '../store/reports/tally-writes';
import { tableNamesFromEnv } from '../store/schema';
import type { TallyStore } from './ports';

/** The tally's dependencies from the function's environment, wired once per container. */
export function tallyStoreFromEnv(env: NodeJS.ProcessEnv = process.env): TallyStore {
  return new DynamoTallyStore(createDocumentClient(dynamoConfigFromEnv(env)), tableNamesFromEnv(env).reports);
}
