import { createDynamoClient, DEFAULT_DYNAMO_CONFIG } from '../../lambda/store/dynamo-client';
import { tableNamesFromEnv, type TableNames } from '../../lambda/store/schema';
import { startDynamoDbLocal } from './dynamodb-local';
import { freePort } from './ports';
import { ensureTables } from './tables';

/** A DynamoDB for one run of a script (fuzz, load): its endpoint, tables, and how to stop it. */
export interface RunStore {
  endpoint: string;
  tables: TableNames;
  /** True when this process started it (and stops it). */
  embedded: boolean;
  stop(): Promise<void>;
}

/**
 * DYNAMODB_ENDPOINT when set (its tables created if missing, as npm start
 * does); otherwise an embedded, in-memory DynamoDB Local on a free port, so
 * a run neither touches .data/ nor collides with a running npm start.
 */
export async function startRunStore(say: (line: string) => void): Promise<RunStore> {
  const tables = tableNamesFromEnv();
  const given = process.env.DYNAMODB_ENDPOINT;
  const dynamo = given ? undefined : await startDynamoDbLocal({ port: await freePort(), fastStart: false });
  // Ctrl-C or kill: leave through process.exit, whose hook stops the java process (it has its own process group).
  if (dynamo) for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
  const endpoint = given ?? (dynamo?.endpoint as string);
  say(given ? `using DynamoDB at ${endpoint}` : `started DynamoDB Local (in memory) at ${endpoint}`);
  const admin = createDynamoClient({ ...DEFAULT_DYNAMO_CONFIG, endpoint, requestTimeoutMs: 10_000 });
  try {
    await ensureTables(admin, tables);
  } catch (error) {
    await dynamo?.stop();
    throw error;
  } finally {
    admin.destroy();
  }
  return { endpoint, tables, embedded: dynamo !== undefined, stop: async () => dynamo?.stop() };
}
