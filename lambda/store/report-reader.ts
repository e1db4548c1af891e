import { BatchGetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { REPORT_BOOKKEEPING } from './dynamo-report-store';
import { feedOf, REPORTS_BY_FEED, type ReportKind } from './schema';

export interface ReadOptions {
  /** Only reports received at or after this time (ISO 8601 UTC). */
  since?: string;
  /** Events of this type only. */
  type?: string;
  /** At most this many. */
  limit?: number;
  /** Items past this time (epoch ms) have expired: DynamoDB removes them within days, the reader skips them now. */
  nowMs?: number;
  /** Index entries per Query (default 100, BatchGetItem's most). */
  pageSize?: number;
}

/** A stored report as the control room reads it: the item without its bookkeeping. */
export function reportOf(item: Record<string, unknown>): Record<string, unknown> {
  const report = { ...item };
  for (const name of REPORT_BOOKKEEPING) delete report[name];
  return report;
}

/**
 * Reads one factory's events or feature requests newest first, page by page
 * in DynamoDB: a Query on the byFeed index (that factory's feed only, by
 * receive time, descending; type and expiry filtered in the index), then one
 * BatchGetItem for the page's items. Nothing of another factory is read.
 */
export async function* readReports(
  doc: DynamoDBDocumentClient,
  tableName: string,
  factoryId: string,
  kind: ReportKind,
  options: ReadOptions = {},
): AsyncGenerator<Record<string, unknown>> {
  const names: Record<string, string> = { '#feed': REPORTS_BY_FEED.partitionKey, '#expiresAt': 'expiresAt' };
  const values: Record<string, unknown> = { ':feed': feedOf(factoryId, kind), ':now': Math.floor((options.nowMs ?? Date.now()) / 1000) };
  let keyCondition = '#feed = :feed';
  if (options.since !== undefined) {
    names['#receivedAt'] = REPORTS_BY_FEED.sortKey;
    values[':since'] = options.since;
    keyCondition += ' AND #receivedAt >= :since';
  }
  let filter = '#expiresAt > :now';
  if (options.type !== undefined) {
    names['#type'] = 'type';
    values[':type'] = options.type;
    filter += ' AND #type = :type';
  }
  let left = options.limit ?? Number.POSITIVE_INFINITY;
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: REPORTS_BY_FEED.indexName,
        KeyConditionExpression: keyCondition,
        FilterExpression: filter,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ScanIndexForward: false,
        Limit: Math.min(options.pageSize ?? 100, Math.max(left, 1)),
        ExclusiveStartKey: cursor,
      }),
    );
    cursor = page.LastEvaluatedKey;
    const keys = (page.Items ?? []).slice(0, left).map((item) => item.pk as string);
    for (const item of await getReportsInOrder(doc, tableName, keys)) {
      yield reportOf(item);
      left -= 1;
    }
  } while (cursor && left > 0);
}

/** The items with these keys, in the keys' order (BatchGetItem answers in any order); ones gone since are skipped. */
export async function getReportsInOrder(doc: DynamoDBDocumentClient, tableName: string, keys: string[]): Promise<Record<string, unknown>[]> {
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
