import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tables, testDoc } from './local-api';

const doc = testDoc();

/** Every item of a factory's partition, read straight from DynamoDB Local. */
export async function factoryItems(factoryId: string): Promise<Record<string, any>[]> {
  const items: Record<string, any>[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(
      new QueryCommand({
        TableName: tables.contacts,
        KeyConditionExpression: 'factoryId = :f',
        ExpressionAttributeValues: { ':f': factoryId },
        ConsistentRead: true,
        ExclusiveStartKey: cursor,
      }),
    );
    items.push(...(page.Items ?? []));
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return items;
}

export const companyItems = async (factoryId: string) =>
  (await factoryItems(factoryId)).filter((item) => String(item.sk).startsWith('company#'));

export const contactItems = async (factoryId: string) =>
  (await factoryItems(factoryId)).filter((item) => String(item.sk).startsWith('ct_'));

export async function getItem(factoryId: string, sk: string) {
  const result = await doc.send(new GetCommand({ TableName: tables.contacts, Key: { factoryId, sk }, ConsistentRead: true }));
  return result.Item;
}

/** Writes an item as another part of the system (the control room) would. */
export async function putItem(item: Record<string, unknown>) {
  await doc.send(new PutCommand({ TableName: tables.contacts, Item: item }));
}
