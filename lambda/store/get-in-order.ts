import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** The items with these keys, in the keys' order (BatchGetItem answers in any order); ones gone since are skipped. */
export async function getInOrder(doc: DynamoDBDocumentClient, tableName: string, keys: string[]): Promise<Record<string, unknown>[]> {
  if (keys.length === 0) return [];
  const found = new Map<string, Record<string, unknown>>();
  let request: Record<string, { Keys: Record<string, unknown>[] }> | undefined = { [tableName]: { Keys: keys.map((pk) => ({ pk })) } };
  while (request && Object.keys(request).length > 0) {
    const page = await doc.send(new BatchGetCommand({ RequestItems: request }));
    for (const item of page.Responses?.[tableName] ?? []) found.set(item.pk as string, item);
    request = page.UnprocessedKeys as typeof request;
  }
  return keys.flatMap((pk) => {
    const item = found.get(pk);
    return item ? [item] : [];
  });
}
