import { createDynamoClient, DEFAULT_DYNAMO_CONFIG } from '../../lambda/store/dynamo-client';
import { LOCAL_TABLE_NAMES } from '../../lambda/store/schema';
import { startDynamoDbLocal, type DynamoDbLocal } from '../../scripts/lib/dynamodb-local';
import { freePort } from '../../scripts/lib/ports';
import { ensureTables } from '../../scripts/lib/tables';

declare global {
  var __dynamoDbLocal: DynamoDbLocal | undefined;
}

/**
 * Starts one in-memory DynamoDB Local for the run, on a free port (so tests
 * run beside `npm start`), creates the tables, and hands the endpoint to the
 * test workers through the environment.
 */
export default async function globalSetup(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const started = Date.now();
  const dynamo = await startDynamoDbLocal({ port: await freePort(), fastStart: true });
  globalThis.__dynamoDbLocal = dynamo;
  const client = createDynamoClient({ ...DEFAULT_DYNAMO_CONFIG, endpoint: dynamo.endpoint, requestTimeoutMs: 10_000 });
  await ensureTables(client, LOCAL_TABLE_NAMES);
  client.destroy();
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.CONTACTS_TABLE_NAME = LOCAL_TABLE_NAMES.contacts;
  process.env.KEYS_TABLE_NAME = LOCAL_TABLE_NAMES.keys;
  process.stdout.write(`\nDynamoDB Local ready at ${dynamo.endpoint} in ${Date.now() - started} ms\n`);
}
