import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';
import { StorageUnavailableError } from '../../kernel/errors';
import { storageCall } from './errors';

/** BatchGetItem's maximum keys per call. */
const BATCH_GET_MAX = 100;
/** Calls per batch of keys, the first included, before the keys DynamoDB keeps leaving unprocessed are given up on. */
const ATTEMPTS = 9;

/**
 * The items of one table with these keys: BATCH_GET_MAX keys per
 * BatchGetItem, the keys DynamoDB leaves unprocessed (under load) asked
 * again after a growing pause; keys still unprocessed after ATTEMPTS calls
 * are a StorageUnavailableError, as every failed store call is. Items that do
 * not exist are left out; the order is DynamoDB's, so callers match items
 * to keys themselves.
 */
export async function batchGet<Item = Record<string, unknown>>(
  doc: DynamoDBDocumentClient,
  tableName: string,
  keys: readonly Record<string, unknown>[],
  options: { operation: string; consistentRead?: boolean },
): Promise<Item[]> {
  const items: Item[] = [];
  for (let offset = 0; offset < keys.length; offset += BATCH_GET_MAX) {
    let pending = keys.slice(offset, offset + BATCH_GET_MAX);
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      // DynamoDB would not serve these keys for the whole while: the store is unavailable, and the request may be sent again.
      if (attempt >= ATTEMPTS)
        throw new StorageUnavailableError(options.operation, new Error(`DynamoDB kept ${pending.length} keys unprocessed through ${ATTEMPTS} calls`));
      if (attempt > 0) await sleep(Math.min(1000, 25 * 2 ** attempt));
      const result = await storageCall(options.operation, () =>
        doc.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: options.consistentRead } } })),
      );
      // The document client answers items untyped: what they hold is the caller's to say.
      items.push(...((result.Responses?.[tableName] ?? []) as Item[]));
      pending = result.UnprocessedKeys?.[tableName]?.Keys ?? [];
    }
  }
  return items;
}
