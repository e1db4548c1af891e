import { createDocumentClient, dynamoConfigFromEnv } from '../../infrastructure/store/dynamo-client';
import { insertedEvents } from '../../infrastructure/store/reports/stream-records';
import { DynamoTallyStore } from '../../infrastructure/store/reports/tally-writes';
import { tableNamesFromEnv } from '../../infrastructure/store/schema';
import type { TallyDependencies } from './tally';

/** The tally's dependencies from the function's environment, wired once per container. */
export function tallyFromEnv(env: NodeJS.ProcessEnv = process.env): TallyDependencies {
  const tables = tableNamesFromEnv(env);
  return { store: new DynamoTallyStore(createDocumentClient(dynamoConfigFromEnv(env)), tables.reports, Date.now, tables.contacts), insertedEvents };
}
