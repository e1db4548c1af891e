import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  type CreateTableCommandInput,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { CONTACTS_KEY, KEYS_BY_FACTORY, KEYS_BY_KEY_ID, KEYS_KEY, REFERENCE_KEY, type TableNames } from '../../lambda/store/schema';
import { SetupError } from './setup-error';

/** The same key schema the CDK stack deploys (both read lambda/store/schema.ts). */
export function tableDefinitions(names: TableNames): CreateTableCommandInput[] {
  return [
    {
      TableName: names.contacts,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: CONTACTS_KEY.partitionKey, AttributeType: 'S' },
        { AttributeName: CONTACTS_KEY.sortKey, AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: CONTACTS_KEY.partitionKey, KeyType: 'HASH' },
        { AttributeName: CONTACTS_KEY.sortKey, KeyType: 'RANGE' },
      ],
    },
    {
      TableName: names.keys,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: KEYS_KEY.partitionKey, AttributeType: 'S' },
        { AttributeName: KEYS_BY_FACTORY.partitionKey, AttributeType: 'S' },
        { AttributeName: KEYS_BY_FACTORY.sortKey, AttributeType: 'S' },
      ],
      KeySchema: [{ AttributeName: KEYS_KEY.partitionKey, KeyType: 'HASH' }],
      GlobalSecondaryIndexes: [
        {
          IndexName: KEYS_BY_FACTORY.indexName,
          KeySchema: [
            { AttributeName: KEYS_BY_FACTORY.partitionKey, KeyType: 'HASH' },
            { AttributeName: KEYS_BY_FACTORY.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'KEYS_ONLY' },
        },
        {
          IndexName: KEYS_BY_KEY_ID.indexName,
          KeySchema: [{ AttributeName: KEYS_BY_KEY_ID.partitionKey, KeyType: 'HASH' }],
          Projection: { ProjectionType: 'KEYS_ONLY' },
        },
      ],
    },
    {
      TableName: names.reference,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: REFERENCE_KEY.partitionKey, AttributeType: 'S' }],
      KeySchema: [{ AttributeName: REFERENCE_KEY.partitionKey, KeyType: 'HASH' }],
    },
  ];
}

async function tableExists(client: DynamoDBClient, name: string): Promise<boolean> {
  try {
    await client.send(new DescribeTableCommand({ TableName: name }));
    return true;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return false;
    throw error;
  }
}

/** Creates whichever of the tables is missing; returns the names it created. */
export async function ensureTables(client: DynamoDBClient, names: TableNames): Promise<string[]> {
  const created: string[] = [];
  for (const definition of tableDefinitions(names)) {
    const name = definition.TableName as string;
    if (await tableExists(client, name)) continue;
    await client.send(new CreateTableCommand(definition));
    created.push(name);
  }
  return created;
}

/** Fails with a one-line hint when a table is missing at `where`. */
export async function assertTablesExist(client: DynamoDBClient, names: string[], where: string, hint: string) {
  for (const name of names) {
    if (!(await tableExists(client, name))) throw new SetupError(`table "${name}" does not exist at ${where}: ${hint}`);
  }
}
