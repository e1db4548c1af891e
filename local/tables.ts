import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
  type CreateTableCommandInput,
  type DynamoDBClient,
  type KeySchemaElement,
} from '@aws-sdk/client-dynamodb';
import type { TableNames } from '../lambda/store/schema';
import { TABLE_SPECS, type TableSpec } from '../lib/table-specs';
import { SetupError } from './setup-error';

type AttributeDefinition = NonNullable<CreateTableCommandInput['AttributeDefinitions']>[number];

/** The key schema of a table or index: HASH, then RANGE when there is a sort key. */
function keySchema(partitionKey: string, sortKey: string | undefined): KeySchemaElement[] {
  const schema: KeySchemaElement[] = [{ AttributeName: partitionKey, KeyType: 'HASH' }];
  if (sortKey !== undefined) schema.push({ AttributeName: sortKey, KeyType: 'RANGE' });
  return schema;
}

/** One table as CreateTable takes it, from its spec (lib/table-specs.ts, which the CDK stack deploys too). */
export function tableDefinition(name: string, spec: TableSpec): CreateTableCommandInput {
  const keyAttributes = new Set<string>();
  for (const owner of [spec, ...spec.indexes]) {
    keyAttributes.add(owner.partitionKey);
    if (owner.sortKey !== undefined) keyAttributes.add(owner.sortKey);
  }
  const definition: CreateTableCommandInput = {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...keyAttributes].map((attribute): AttributeDefinition => ({ AttributeName: attribute, AttributeType: 'S' })),
    KeySchema: keySchema(spec.partitionKey, spec.sortKey),
  };
  if (spec.indexes.length > 0) {
    definition.GlobalSecondaryIndexes = spec.indexes.map((index) => ({
      IndexName: index.indexName,
      KeySchema: keySchema(index.partitionKey, index.sortKey),
      Projection: index.include ? { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.include] } : { ProjectionType: 'KEYS_ONLY' },
    }));
  }
  return definition;
}

/** Every table of the service under the given names. */
export function tableDefinitions(names: TableNames): { definition: CreateTableCommandInput; spec: TableSpec }[] {
  return (Object.keys(TABLE_SPECS) as (keyof TableNames)[]).map((table) => ({
    definition: tableDefinition(names[table], TABLE_SPECS[table]),
    spec: TABLE_SPECS[table],
  }));
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
  for (const { definition, spec } of tableDefinitions(names)) {
    const name = definition.TableName as string;
    if (await tableExists(client, name)) continue;
    await client.send(new CreateTableCommand(definition));
    // As on AWS, so expiring items behave the same (DynamoDB Local removes them too).
    if (spec.timeToLiveAttribute !== undefined) {
      await client.send(
        new UpdateTimeToLiveCommand({ TableName: name, TimeToLiveSpecification: { AttributeName: spec.timeToLiveAttribute, Enabled: true } }),
      );
    }
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
