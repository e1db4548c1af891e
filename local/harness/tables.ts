import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type TableDescription,
  type CreateTableCommandInput,
  type DynamoDBClient,
  type KeySchemaElement,
} from '@aws-sdk/client-dynamodb';
import type { TableNames } from '../../lambda/infrastructure/store/schema';
import { TABLE_SPECS, type IndexSpec, type TableSpec } from '../../lib/table-specs';
import { SetupError } from './setup-error';

type AttributeDefinition = NonNullable<CreateTableCommandInput['AttributeDefinitions']>[number];

/** The key schema of a table or index: HASH, then RANGE when there is a sort key. */
function keySchema(partitionKey: string, sortKey: string | undefined): KeySchemaElement[] {
  const schema: KeySchemaElement[] = [{ AttributeName: partitionKey, KeyType: 'HASH' }];
  if (sortKey !== undefined) schema.push({ AttributeName: sortKey, KeyType: 'RANGE' });
  return schema;
}

/** The attribute definitions of the keys of a table and the given indexes (all strings). */
function keyAttributes(owners: { partitionKey: string; sortKey?: string }[]): AttributeDefinition[] {
  const names = new Set<string>();
  for (const owner of owners) {
    names.add(owner.partitionKey);
    if (owner.sortKey !== undefined) names.add(owner.sortKey);
  }
  return [...names].map((attribute): AttributeDefinition => ({ AttributeName: attribute, AttributeType: 'S' }));
}

const indexDefinition = (index: IndexSpec) => ({
  IndexName: index.indexName,
  KeySchema: keySchema(index.partitionKey, index.sortKey),
  Projection: index.include ? { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...index.include] } : { ProjectionType: 'KEYS_ONLY' as const },
});

/** One table as CreateTable takes it, from its spec (lib/table-specs.ts, which the CDK stack deploys too). */
export function tableDefinition(name: string, spec: TableSpec): CreateTableCommandInput {
  const definition: CreateTableCommandInput = {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: keyAttributes([spec, ...spec.indexes]),
    KeySchema: keySchema(spec.partitionKey, spec.sortKey),
  };
  if (spec.indexes.length > 0) definition.GlobalSecondaryIndexes = spec.indexes.map(indexDefinition);
  if (spec.stream !== undefined) definition.StreamSpecification = { StreamEnabled: true, StreamViewType: spec.stream };
  return definition;
}

/** Every table of the service under the given names. */
export function tableDefinitions(names: TableNames): { definition: CreateTableCommandInput; spec: TableSpec }[] {
  return (Object.keys(TABLE_SPECS) as (keyof TableNames)[]).map((table) => ({
    definition: tableDefinition(names[table], TABLE_SPECS[table]),
    spec: TABLE_SPECS[table],
  }));
}

async function describeTable(client: DynamoDBClient, name: string): Promise<TableDescription | undefined> {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: name }))).Table;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return undefined;
    throw error;
  }
}

const tableExists = async (client: DynamoDBClient, name: string) => (await describeTable(client, name)) !== undefined;

/**
 * Adds the indexes a table made by an older version lacks (one at a time, as
 * DynamoDB wants), and waits until each is built from the items already
 * there; returns them as "table/index".
 */
async function ensureIndexes(client: DynamoDBClient, name: string, spec: TableSpec, existing: TableDescription): Promise<string[]> {
  const have = new Set((existing.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  const added: string[] = [];
  for (const index of spec.indexes.filter((wanted) => !have.has(wanted.indexName))) {
    await client.send(
      new UpdateTableCommand({
        TableName: name,
        AttributeDefinitions: keyAttributes([spec, index]),
        GlobalSecondaryIndexUpdates: [{ Create: indexDefinition(index) }],
      }),
    );
    for (let waited = 0; ; waited += 200) {
      const state = (await describeTable(client, name))?.GlobalSecondaryIndexes?.find((found) => found.IndexName === index.indexName);
      if (state?.IndexStatus === 'ACTIVE') break;
      if (waited > 120_000) throw new SetupError(`index ${index.indexName} of table "${name}" is still ${state?.IndexStatus ?? 'missing'} after 2 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    added.push(`${name}/${index.indexName}`);
  }
  return added;
}

/** Turns on the stream of a table made by an older version without one; returns it as "table/stream". */
async function ensureStream(client: DynamoDBClient, name: string, spec: TableSpec, existing: TableDescription): Promise<string[]> {
  if (spec.stream === undefined || existing.StreamSpecification?.StreamEnabled) return [];
  await client.send(new UpdateTableCommand({ TableName: name, StreamSpecification: { StreamEnabled: true, StreamViewType: spec.stream } }));
  return [`${name}/stream`];
}

/** Creates whichever of the tables (or of their indexes, or their streams) is missing; returns the names it created. */
export async function ensureTables(client: DynamoDBClient, names: TableNames): Promise<string[]> {
  const created: string[] = [];
  for (const { definition, spec } of tableDefinitions(names)) {
    const name = definition.TableName as string;
    const existing = await describeTable(client, name);
    if (existing) {
      created.push(...(await ensureIndexes(client, name, spec, existing)));
      created.push(...(await ensureStream(client, name, spec, existing)));
      continue;
    }
    await client.send(new CreateTableCommand(definition));
    // As on AWS, so expiring items behave the same (DynamoDB Local removes them too).
    if (spec.timeToLiveAttribute !== undefined) {
      await client.send(new UpdateTimeToLiveCommand({ TableName: name, TimeToLiveSpecification: { AttributeName: spec.timeToLiveAttribute, Enabled: true } }));
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
