import { GetCommand, PutCommand, ScanCommand, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import { partitionItems } from '../../tools/fuzz/partition';
import { tables, testDoc } from './local-api';

const doc = testDoc();

/** Every item of a factory's partition, read straight from DynamoDB Local. */
export async function factoryItems(factoryId: string): Promise<Record<string, any>[]> {
  return partitionItems(doc, tables.contacts, factoryId);
}

/**
 * Every item of a table, page after page: a test that checks no item holds a value must read them all, and the
 * run's one DynamoDB Local holds every file's items, far past a scan's first page (1 MB).
 */
export async function tableItems(table: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: ScanCommandOutput['LastEvaluatedKey'];
  do {
    const page: ScanCommandOutput = await doc.send(new ScanCommand({ TableName: table, ExclusiveStartKey: start, ConsistentRead: true }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

export const companyItems = async (factoryId: string) => (await factoryItems(factoryId)).filter((item) => String(item.sk).startsWith('company#'));

export const contactItems = async (factoryId: string) => (await factoryItems(factoryId)).filter((item) => String(item.sk).startsWith('ct_'));

export async function getItem(factoryId: string, sk: string) {
  const result = await doc.send(new GetCommand({ TableName: tables.contacts, Key: { factoryId, sk }, ConsistentRead: true }));
  return result.Item;
}

/** Writes an item as another part of the system (the control room) would. */
export async function putItem(item: Record<string, unknown>) {
  await doc.send(new PutCommand({ TableName: tables.contacts, Item: item }));
}
