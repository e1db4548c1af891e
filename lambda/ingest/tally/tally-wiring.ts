import { createDocumentClient, dynamoConfigFromEnv } from '../../infrastructure/store/dynamo-client';
import { DynamoReleaseStore } from '../../infrastructure/store/reports/release-writes';
import { discardCounts, sessionCounts } from '../../infrastructure/store/reports/session-records';
import { insertedEvents } from '../../infrastructure/store/reports/stream-records';
import { DynamoTallyStore } from '../../infrastructure/store/reports/tally-writes';
import { tableNamesFromEnv } from '../../infrastructure/store/schema';
import type { TallyDependencies } from './tally';

/** The tally's dependencies from the function's environment, wired once per container. */
export function tallyFromEnv(env: NodeJS.ProcessEnv = process.env): TallyDependencies {
  const doc = createDocumentClient(dynamoConfigFromEnv(env));
  const tables = tableNamesFromEnv(env);
  return {
    store: new DynamoTallyStore(doc, tables.reports, Date.now, tables.contacts),
    insertedEvents,
    sessions: { store: new DynamoReleaseStore(doc, tables.reports), counts: sessionCounts, discards: discardCounts },
  };
}
