import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** Every item of a factory's partition of the contacts table, read consistently, page by page. */
export async function partitionItems(doc: DynamoDBDocumentClient, table: string, factoryId: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(
      new QueryCommand({
        TableName: table,
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

/** The same partition as one comparable string. */
export async function partitionSnapshot(doc: DynamoDBDocumentClient, table: string, factoryId: string): Promise<string> {
  const items = await partitionItems(doc, table, factoryId);
  // Attribute order is not kept by DynamoDB: sort keys so equal items compare equal.
  return JSON.stringify(items.map((item) => Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b)))));
}
