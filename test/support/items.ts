import { GetCommand, PutCommand, ScanCommand, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import { EVENT_DETAIL_ATTRIBUTE, storedEventOf } from '../../lambda/infrastructure/store/reports/event-items';
import { partitionItems } from '../../tools/fuzz/partition';
import { tables, testDoc } from './local-api';

const doc = testDoc();

/** Every item of a factory's partition, read straight from DynamoDB Local. */
export async function factoryItems(factoryId: string): Promise<Record<string, any>[]> {
  return partitionItems(doc, tables.contacts, factoryId);
}

/**
 * An item as a test reads what it holds: an event item's detail (one compressed attribute:
 * lambda/infrastructure/store/reports/event-items.ts) expanded beside its key, so that a test looking for a value
 * in the table finds it there too; any other item as it is.
 */
export function readableItem(item: Record<string, unknown>): Record<string, unknown> {
  if (!(EVENT_DETAIL_ATTRIBUTE in item) || !String(item.pk).startsWith('event#')) return item;
  return { pk: item.pk, ...storedEventOf(item) };
}

/**
 * Every item of a table, page after page, event items readable (readableItem): a test that checks no item holds a
 * value must read them all, and the run's one DynamoDB Local holds every file's items, far past a scan's first page (1 MB).
 */
export async function tableItems(table: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: ScanCommandOutput['LastEvaluatedKey'];
  do {
    const page: ScanCommandOutput = await doc.send(new ScanCommand({ TableName: table, ExclusiveStartKey: start, ConsistentRead: true }));
    items.push(...(page.Items ?? []).map(readableItem));
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
