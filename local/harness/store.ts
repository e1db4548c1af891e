/**
 * Where a local process gets its DynamoDB: the one module that starts
 * DynamoDB Local or finds the one in use, and prepares its tables.
 *
 *   serveStore        `npm start`: the embedded DynamoDB Local on .data/ (or
 *                     DYNAMODB_ENDPOINT), its tables created, the store lock written
 *   connectStore      the operator commands (keys, enrich, …): a deployed
 *                     stack's tables, DYNAMODB_ENDPOINT, the store a running
 *                     `npm start` serves, or .data/ opened for the command alone
 *   openScratchStore  tools and tests: DYNAMODB_ENDPOINT, or a fresh in-memory
 *                     DynamoDB Local on a free port, never touching .data/
 */
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { ListTablesCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { OUTPUTS, rateLimitFromOutput } from '../../lib/outputs';
import { createDynamoClient, DEFAULT_DYNAMO_CONFIG, documentClientOf } from '../../lambda/infrastructure/store/dynamo-client';
import { tableNamesFromEnv, type TableNames } from '../../lambda/infrastructure/store/schema';
import { dynamoDbLocalVersion, startDynamoDbLocal, type DynamoDbLocal } from './dynamodb-local';
import { watchDynamoDbLocal, type DynamoDbWatch } from './dynamodb-watch';
import { CHOSEN_DATA_DIR, DEFAULT_DYNAMODB_PORT, LOCAL_DATA_DIR } from './paths';
import { freePort, portFromEnv } from './ports';
import { runningServers, type RunningServer } from './server-registry';
import { liveStore, removeLock, writeLock } from './store-lock';
import { SetupError } from './setup-error';
import { assertTablesExist, ensureTables } from './tables';
import { isAbsolute, relative } from 'node:path';

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
  /** The API's base URL, when known: the running npm start's or the stack's (its ApiUrl output); a DSN points there. */
  apiUrl?: string;
  /** The running npm start's source maps store, as its functions' environment names it. */
  maps?: RunningServer['maps'];
  close(): Promise<void>;
}

export interface StoreTarget {
  /** A deployed stack: table names come from its outputs. */
  stack?: string;
  region?: string;
}

// Local processes other than the API are not on a request path: allow slower answers than the Lambda does.
const CLI_CONFIG = { ...DEFAULT_DYNAMO_CONFIG, requestTimeoutMs: 10_000, connectionTimeoutMs: 3000 };

/** Creates whichever tables are missing at `endpoint`; returns the names it created. */
async function prepareTables(endpoint: string, tables: TableNames): Promise<string[]> {
  const admin = createDynamoClient({ ...CLI_CONFIG, endpoint });
  try {
    return await ensureTables(admin, tables);
  } finally {
    admin.destroy();
  }
}

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
  reports: OUTPUTS.reportsTable,
  alerts: OUTPUTS.alertsTable,
};

/** A deployed stack's outputs, by name, read with the caller's AWS credentials. */
export async function stackOutputs(stack: string, region: string | undefined): Promise<Record<string, string>> {
  const cfn = new CloudFormationClient({ region });
  const outputs: Record<string, string> = {};
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
  return outputs;
}

async function connectStack(stack: string, region: string | undefined, need: (keyof TableNames)[]): Promise<StoreConnection> {
  const outputs = await stackOutputs(stack, region);
  const missing = need.filter((table) => !outputs[OUTPUT_OF[table]]).map((table) => OUTPUT_OF[table]);
  if (missing.length > 0) {
    throw new SetupError(`stack "${stack}" has no ${missing.join(', ')} output: is it the contacts service stack, deployed from this version?`);
  }
  const tables: TableNames = {
    contacts: outputs[OUTPUTS.contactsTable] ?? '',
    keys: outputs[OUTPUTS.keysTable] ?? '',
    reference: outputs[OUTPUTS.referenceTable] ?? '',
    reports: outputs[OUTPUTS.reportsTable] ?? '',
    alerts: outputs[OUTPUTS.alertsTable] ?? '',
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
    apiUrl: outputs[OUTPUTS.apiUrl],
  };
}

/**
 * The store an operator command works on, with no flags the same one a
 * running `npm start` uses:
 *   --stack NAME          the deployed stack's tables (names from its outputs)
 *   DYNAMODB_ENDPOINT     that endpoint (tables must exist)
 *   otherwise             the store a running `npm start` serves, whatever
 *                         its ports and data folder (findLocalStore); when
 *                         none runs, the embedded DynamoDB Local is started on
 *                         the data folder for the command and stopped after it.
 */
export async function connectStore(target: StoreTarget = {}, need: (keyof TableNames)[] = ['contacts', 'keys']): Promise<StoreConnection> {
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
    await assertTablesExist(client, needed(tables), endpoint, 'start the service once with npm start, which creates them').catch((error) => {
      client.destroy();
      throw error;
    });
    return open(client, tables, endpoint, async () => undefined);
  }

  const local = await findLocalStore(tables, needed(tables));
  if (local) return local;

  // Nothing running: open the data folder npm start uses, for this command only.
  const port = portFromEnv('DYNAMODB_PORT', DEFAULT_DYNAMODB_PORT);
  const dynamo = await startDynamoDbLocal({ port, dataDir: LOCAL_DATA_DIR, fastStart: true });
  writeLock(LOCAL_DATA_DIR, { serverPid: process.pid, javaPid: dynamo.pid, endpoint: dynamo.endpoint, command: 'an operator command (keys, enrich, control)' });
  const stop = async () => {
    await dynamo.stop();
    removeLock(LOCAL_DATA_DIR);
  };
  try {
    await prepareTables(dynamo.endpoint, tables);
  } catch (error) {
    await stop();
    throw error;
  }
  // Said only when a server runs elsewhere: then the data this command writes is not what that server serves.
  const elsewhere = runningServers();
  if (elsewhere.length > 0) {
    note(
      `no server runs on ${shown(LOCAL_DATA_DIR)}: this command started DynamoDB Local on it for itself, while ${elsewhere.map(described).join('; ')} serves another store`,
    );
  }
  return open(createDynamoClient({ ...CLI_CONFIG, endpoint: dynamo.endpoint }), tables, `${dynamo.endpoint} (${shown(LOCAL_DATA_DIR)})`, stop);
}

const note = (line: string) => process.stderr.write(`${line}\n`);

/** A folder as messages show it: relative to the working directory when inside it. */
function shown(folder: string): string {
  const path = relative(process.cwd(), folder);
  return path && !path.startsWith('..') && !isAbsolute(path) ? path : folder;
}

const described = (server: RunningServer) => `npm start (pid ${server.pid}, API ${server.api}, data in ${shown(server.dataDir)}, DynamoDB ${server.endpoint})`;

/**
 * The store a running server already serves, if the command should use it:
 *   CONTACTS_DATA_DIR set   the server on that folder, if one runs there
 *   otherwise               the one running `npm start`, whatever its data
 *                           folder (said on stderr); several serving
 *                           different stores are a SetupError naming them;
 *                           none: a command serving .data/dynamodb, if any
 * Undefined when the command must open its data folder itself.
 */
async function findLocalStore(tables: TableNames, needed: string[]): Promise<StoreConnection | undefined> {
  if (!CHOSEN_DATA_DIR) {
    const servers = runningServers();
    const stores = new Set(servers.map((server) => server.endpoint));
    if (stores.size > 1) {
      throw new SetupError(
        `${servers.length} npm start servers run on different stores: ${servers.map(described).join('; ')}. Choose one with CONTACTS_DATA_DIR=<its data folder> or DYNAMODB_ENDPOINT=<its DynamoDB>`,
      );
    }
    const [server] = servers;
    if (server) {
      note(`using the store of ${described(server)}`);
      return { ...(await connectLive(`npm start (pid ${server.pid})`, server.endpoint, tables, needed)), apiUrl: server.api, maps: server.maps };
    }
  }
  const live = await liveStore(LOCAL_DATA_DIR, note);
  return live ? connectLive(`${live.command} (pid ${live.serverPid})`, live.endpoint, tables, needed) : undefined;
}

/** The store another process serves at `endpoint`: it must answer and have the tables. */
async function connectLive(who: string, endpoint: string, tables: TableNames, needed: string[]): Promise<StoreConnection> {
  const client = createDynamoClient({ ...CLI_CONFIG, endpoint });
  if (!(await answersAsDynamoDb(client))) {
    client.destroy();
    throw new SetupError(`${who} serves the local store at ${endpoint}, but it does not answer: is it still starting? Try again`);
  }
  await assertTablesExist(client, needed, endpoint, 'restart npm start, which creates them').catch((error) => {
    client.destroy();
    throw error;
  });
  return open(client, tables, endpoint, async () => undefined);
}

/** The store `npm start` serves, until `stop()`. */
export interface ServedStore {
  endpoint: string;
  /** Tables created now (a fresh data folder). */
  created: string[];
  stop(): Promise<void>;
}

/**
 * `npm start`'s store: DYNAMODB_ENDPOINT when set, otherwise the embedded
 * DynamoDB Local on `dataDir` (which survives restarts), watched: should it
 * exit, it is started again on the same data (dynamodb-watch.ts), and
 * `onGiveUp` hears when it keeps dying. Writes the lock that lets the
 * operator commands find it, and creates missing tables.
 */
export async function serveStore(options: {
  dataDir: string;
  port: number;
  say: (line: string) => void;
  onGiveUp?: (reason: string) => void;
}): Promise<ServedStore> {
  const { dataDir, port, say } = options;
  let watch: DynamoDbWatch | undefined;
  let endpoint = process.env.DYNAMODB_ENDPOINT;
  if (!endpoint) {
    say(`starting DynamoDB Local on port ${port} (data in ${relative(process.cwd(), dataDir) || '.'}) …`);
    // The tests' npm starts live seconds: the JIT's first tier only (docs/development.md#where-the-cpu-goes-by-kind-of-process).
    const fastStart = process.env.DYNAMODB_LOCAL_FAST_START === '1';
    const first = await startDynamoDbLocal({ port, dataDir, fastStart });
    const served = first.endpoint;
    endpoint = served;
    watch = watchDynamoDbLocal(first, {
      restart: () => startDynamoDbLocal({ port, dataDir, fastStart }),
      say,
      dataLabel: shown(dataDir),
      // The lock names the java process, so that a kill -9 of npm start leaves no orphan behind.
      onRestarted: (next) => writeLock(dataDir, { serverPid: process.pid, javaPid: next.pid, endpoint: served, command: 'npm start' }),
      onGiveUp: options.onGiveUp ?? (() => undefined),
    });
  }
  writeLock(dataDir, { serverPid: process.pid, javaPid: watch?.current().pid, endpoint, command: 'npm start' });
  const stop = async () => {
    await watch?.stop();
    removeLock(dataDir);
  };
  try {
    const created = await prepareTables(endpoint, tableNamesFromEnv()).catch((error: unknown) => {
      throw new SetupError(`could not prepare the tables at ${endpoint}: ${error instanceof Error ? error.message : String(error)}`);
    });
    return { endpoint, created, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A DynamoDB for one run of a tool or of the tests, with an uncounted client of its own. */
export interface ScratchStore {
  endpoint: string;
  tables: TableNames;
  /** True when this process started it (and `close()` stops it). */
  embedded: boolean;
  /** `DynamoDB Local 3.3.0 (build …), embedded, in memory`, or the endpoint given. */
  description: string;
  client: DynamoDBClient;
  doc: DynamoDBDocumentClient;
  close(): Promise<void>;
}

/**
 * DYNAMODB_ENDPOINT when set (its tables created if missing, as npm start
 * does); otherwise an embedded, in-memory DynamoDB Local on a free port, so
 * a run neither touches .data/ nor collides with a running npm start.
 */
export async function openScratchStore(options: { say?: (line: string) => void; fastStart?: boolean; exitOnSignal?: boolean } = {}): Promise<ScratchStore> {
  const tables = tableNamesFromEnv();
  const given = process.env.DYNAMODB_ENDPOINT;
  const dynamo = given ? undefined : await startDynamoDbLocal({ port: await freePort(), fastStart: options.fastStart ?? false });
  // Ctrl-C or kill: leave through process.exit, whose hook stops the java process (it has its own process group).
  if (dynamo && options.exitOnSignal) for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
  const endpoint = given ?? (dynamo as DynamoDbLocal).endpoint;
  options.say?.(given ? `using DynamoDB at ${endpoint}` : `started DynamoDB Local (in memory) at ${endpoint}`);
  try {
    await prepareTables(endpoint, tables);
  } catch (error) {
    await dynamo?.stop();
    throw error;
  }
  const client = createDynamoClient({ ...CLI_CONFIG, endpoint });
  return {
    endpoint,
    tables,
    embedded: dynamo !== undefined,
    description: given ? `the DynamoDB at DYNAMODB_ENDPOINT=${given} (version not known)` : `DynamoDB Local ${dynamoDbLocalVersion()}, embedded, in memory`,
    client,
    doc: documentClientOf(client),
    close: async () => {
      client.destroy();
      await dynamo?.stop();
    },
  };
}
