import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { ListTablesCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { OUTPUTS, rateLimitFromOutput } from '../../lib/outputs';
import { createDynamoClient, DEFAULT_DYNAMO_CONFIG, documentClientOf } from '../../lambda/store/dynamo-client';
import { tableNamesFromEnv, type TableNames } from '../../lambda/store/schema';
import { startDynamoDbLocal } from './dynamodb-local';
import { DEFAULT_DYNAMODB_PORT, LOCAL_DATA_DIR } from './paths';
import { portFromEnv } from './ports';
import { liveStore, removeLock, writeLock } from './store-lock';
import { SetupError } from './setup-error';
import { assertTablesExist, ensureTables } from './tables';

export interface StoreConnection {
  client: DynamoDBClient;
  doc: DynamoDBDocumentClient;
  tables: TableNames;
  /** Where the store is, for messages: an endpoint or a stack. */
  where: string;
  /** A deployed stack's `enrichment.provider` name (its PlatformName output). */
  platformName?: string;
  /** A deployed stack's requests per minute for new keys (its DefaultRateLimit output). */
  defaultRateLimit?: number;
  close(): Promise<void>;
}

export interface StoreTarget {
  /** A deployed stack: table names come from its outputs. */
  stack?: string;
  region?: string;
}

// Operator commands are not on a request path: allow slower answers than the Lambda does.
const CLI_CONFIG = { ...DEFAULT_DYNAMO_CONFIG, requestTimeoutMs: 10_000, connectionTimeoutMs: 3000 };

function open(client: DynamoDBClient, tables: TableNames, where: string, close: () => Promise<void>): StoreConnection {
  const doc = documentClientOf(client);
  return {
    client,
    doc,
    tables,
    where,
    close: async () => {
      client.destroy();
      await close();
    },
  };
}

async function answersAsDynamoDb(client: DynamoDBClient): Promise<boolean> {
  try {
    await client.send(new ListTablesCommand({ Limit: 1 }));
    return true;
  } catch {
    return false;
  }
}

const OUTPUT_OF: Record<keyof TableNames, string> = {
  contacts: OUTPUTS.contactsTable,
  keys: OUTPUTS.keysTable,
  reference: OUTPUTS.referenceTable,
};

async function connectStack(stack: string, region: string | undefined, need: (keyof TableNames)[]): Promise<StoreConnection> {
  const cfn = new CloudFormationClient({ region });
  let outputs: Record<string, string> = {};
  try {
    const found = await cfn.send(new DescribeStacksCommand({ StackName: stack }));
    for (const output of found.Stacks?.[0]?.Outputs ?? []) {
      if (output.OutputKey && output.OutputValue) outputs[output.OutputKey] = output.OutputValue;
    }
  } catch (error) {
    throw new SetupError(
      `could not read stack "${stack}"${region ? ` in ${region}` : ''}: ${error instanceof Error ? error.message : String(error)} (check --stack, --region or AWS_REGION, and your AWS credentials)`,
    );
  } finally {
    cfn.destroy();
  }
  const missing = need.filter((table) => !outputs[OUTPUT_OF[table]]).map((table) => OUTPUT_OF[table]);
  if (missing.length > 0) {
    throw new SetupError(`stack "${stack}" has no ${missing.join(', ')} output: is it the contacts service stack, deployed from this version?`);
  }
  const tables: TableNames = {
    contacts: outputs[OUTPUTS.contactsTable] ?? '',
    keys: outputs[OUTPUTS.keysTable] ?? '',
    reference: outputs[OUTPUTS.referenceTable] ?? '',
  };
  let defaultRateLimit: number | undefined;
  try {
    defaultRateLimit = rateLimitFromOutput(outputs[OUTPUTS.defaultRateLimit]);
  } catch (error) {
    throw new SetupError(`stack "${stack}": ${error instanceof Error ? error.message : String(error)}`);
  }
  const client = createDynamoClient({ ...CLI_CONFIG, region });
  return {
    ...open(client, tables, `stack ${stack}`, async () => undefined),
    platformName: outputs[OUTPUTS.platformName],
    defaultRateLimit,
  };
}

/**
 * The store an operator command works on, with no flags the same one a
 * running `npm start` uses:
 *   --stack NAME          the deployed stack's tables (names from its outputs)
 *   DYNAMODB_ENDPOINT     that endpoint (tables must exist)
 *   otherwise             the store a running `npm start` serves (found
 *                         through .data/dynamodb/store.json, whatever its
 *                         ports); when none runs, the embedded DynamoDB Local
 *                         is started on .data/ for the command and stopped after it.
 */
export async function connectStore(
  target: StoreTarget = {},
  need: (keyof TableNames)[] = ['contacts', 'keys'],
): Promise<StoreConnection> {
  if (target.stack) return connectStack(target.stack, target.region, need);
  const needed = (tables: TableNames) => need.map((table) => tables[table]);

  const tables = tableNamesFromEnv();
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  if (endpoint) {
    const client = createDynamoClient({ ...CLI_CONFIG, endpoint });
    if (!(await answersAsDynamoDb(client))) {
      client.destroy();
      throw new SetupError(`no DynamoDB answers at DYNAMODB_ENDPOINT=${endpoint}: start it, or unset DYNAMODB_ENDPOINT`);
    }
    await assertTablesExist(client, needed(tables), endpoint, 'start the service once with npm start, which creates them').catch(
      (error) => {
        client.destroy();
        throw error;
      },
    );
    return open(client, tables, endpoint, async () => undefined);
  }

  // A running `npm start` (or another command) serving this project's store: use it.
  const live = liveStore(LOCAL_DATA_DIR, (line) => process.stderr.write(`${line}\n`));
  if (live) {
    const client = createDynamoClient({ ...CLI_CONFIG, endpoint: live.endpoint });
    if (!(await answersAsDynamoDb(client))) {
      client.destroy();
      throw new SetupError(`${live.command} (pid ${live.serverPid}) serves the local store at ${live.endpoint}, but it does not answer: is it still starting? Try again`);
    }
    await assertTablesExist(client, needed(tables), live.endpoint, 'restart npm start, which creates them').catch((error) => {
      client.destroy();
      throw error;
    });
    return open(client, tables, live.endpoint, async () => undefined);
  }

  // Nothing running: open the same data folder npm start uses, for this command only.
  const port = portFromEnv('DYNAMODB_PORT', DEFAULT_DYNAMODB_PORT);
  const dynamo = await startDynamoDbLocal({ port, dataDir: LOCAL_DATA_DIR, fastStart: true });
  writeLock(LOCAL_DATA_DIR, { serverPid: process.pid, javaPid: dynamo.pid, endpoint: dynamo.endpoint, command: 'a keys/enrich command' });
  const stop = async () => {
    await dynamo.stop();
    removeLock(LOCAL_DATA_DIR);
  };
  const client = createDynamoClient({ ...CLI_CONFIG, endpoint: dynamo.endpoint });
  try {
    await ensureTables(client, tables);
  } catch (error) {
    client.destroy();
    await stop();
    throw error;
  }
  return open(client, tables, `${dynamo.endpoint} (.data/)`, stop);
}
