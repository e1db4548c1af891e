import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchGet } from './batch-get';
import { REPORTS_KEY } from './schema';

/** The items with these keys, in the keys' order (BatchGetItem answers in any order); ones gone since are skipped. */
export async function getInOrder(doc: DynamoDBDocumentClient, tableName: string, keys: string[]): Promise<Record<string, unknown>[]> {
  const items = await batchGet(doc, tableName, keys.map((pk) => ({ [REPORTS_KEY.partitionKey]: pk })), { operation: 'BatchGetItem (reports)' });
  const found = new Map(items.map((item) => [item[REPORTS_KEY.partitionKey] as string, item]));
  return keys.flatMap((pk) => {
    const item = found.get(pk);
    return item ? [item] : [];
  });
}
