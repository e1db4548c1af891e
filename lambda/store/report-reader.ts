import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { getInOrder } from './get-in-order';
import { QueryExpression } from './expression';
import { EXPIRES_AT, feedOf, REPORT_BOOKKEEPING, REPORTS_BY_FEED, type ReportKind } from './schema';

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
  const query = new QueryExpression();
  query.key(query.is(REPORTS_BY_FEED.partitionKey, '=', feedOf(factoryId, kind)));
  if (options.since !== undefined) query.key(query.is(REPORTS_BY_FEED.sortKey, '>=', options.since));
  query.filter(query.is(EXPIRES_AT, '>', Math.floor((options.nowMs ?? Date.now()) / 1000)));
  if (options.type !== undefined) query.filter(query.is('type', '=', options.type));
  let left = options.limit ?? Number.POSITIVE_INFINITY;
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: REPORTS_BY_FEED.indexName,
        ...query.forQuery(),
        ScanIndexForward: false,
        Limit: Math.min(options.pageSize ?? 100, Math.max(left, 1)),
        ExclusiveStartKey: cursor,
      }),
    );
    cursor = page.LastEvaluatedKey;
    const keys = (page.Items ?? []).slice(0, left).map((item) => item.pk as string);
    for (const item of await getInOrder(doc, tableName, keys)) {
      yield reportOf(item);
      left -= 1;
    }
  } while (cursor && left > 0);
}
