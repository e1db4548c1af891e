import { GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ReportPage, ReportPageQuery } from '../control/ports';
import { InvalidCursorError } from '../domain/errors';
import { storageCall } from './errors';
import { getInOrder } from './get-in-order';
import { reportOf } from './report-reader';
import { eventKey, featureRequestKey, feedOf, REPORTS_BY_FEED, type ReportKind } from './schema';

/** The byFeed index's position after a page: bound to its factory and kind, opaque to callers (base64url JSON). */
function encodeReportCursor(factoryId: string, kind: ReportKind, key: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify({ f: factoryId, k: kind, pk: key.pk, r: key[REPORTS_BY_FEED.sortKey] })).toString('base64url');
}

function decodeReportCursor(cursor: string, factoryId: string, kind: ReportKind): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const { f, k, pk, r } = (parsed ?? {}) as Record<string, unknown>;
  if (typeof pk !== 'string' || typeof r !== 'string' || typeof f !== 'string' || k !== kind) {
    throw new InvalidCursorError(`cursor is not one this service returned for ${kind}: start without a cursor, or pass the last one back as it was`);
  }
  if (f !== factoryId) throw new InvalidCursorError(`cursor belongs to another factory (${f}), not ${factoryId}`);
  return { pk, [REPORTS_BY_FEED.partitionKey]: feedOf(factoryId, kind), [REPORTS_BY_FEED.sortKey]: r };
}

/**
 * One page of a factory's events or feature requests, newest first: the
 * Query on the byFeed index that `readReports` runs, but resumable from a
 * cursor (the control room's paged lists). A page may come back short when
 * expired or other-type entries were filtered out; `next` says more may remain.
 */
export async function readReportPage(
  doc: DynamoDBDocumentClient,
  tableName: string,
  factoryId: string,
  kind: ReportKind,
  query: ReportPageQuery,
): Promise<ReportPage> {
  const names: Record<string, string> = { '#feed': REPORTS_BY_FEED.partitionKey, '#expiresAt': 'expiresAt' };
  const values: Record<string, unknown> = { ':feed': feedOf(factoryId, kind), ':now': Math.floor((query.nowMs ?? Date.now()) / 1000) };
  let filter = '#expiresAt > :now';
  if (query.type !== undefined) {
    names['#type'] = 'type';
    values[':type'] = query.type;
    filter += ' AND #type = :type';
  }
  const start = query.cursor === undefined ? undefined : decodeReportCursor(query.cursor, factoryId, kind);
  const page = await storageCall(`Query (${kind} feed)`, () =>
    doc.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: REPORTS_BY_FEED.indexName,
        KeyConditionExpression: '#feed = :feed',
        FilterExpression: filter,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ScanIndexForward: false,
        Limit: query.limit,
        ExclusiveStartKey: start,
      }),
    ),
  );
  const keys = (page.Items ?? []).map((item) => String(item.pk));
  const items = (await storageCall(`BatchGetItem (${kind})`, () => getInOrder(doc, tableName, keys))).map(reportOf);
  const last = page.LastEvaluatedKey;
  return { items, ...(last ? { next: encodeReportCursor(factoryId, kind, last) } : {}) };
}

/** One event (by eventId) or feature request (by requestId) of the factory, undefined when there is none or it expired. */
export async function readReport(
  doc: DynamoDBDocumentClient,
  tableName: string,
  factoryId: string,
  kind: ReportKind,
  id: string,
  nowMs: number = Date.now(),
): Promise<Record<string, unknown> | undefined> {
  const pk = kind === 'events' ? eventKey(factoryId, id) : featureRequestKey(factoryId, id);
  const found = await storageCall(`GetItem (${kind})`, () => doc.send(new GetCommand({ TableName: tableName, Key: { pk } })));
  const item = found.Item;
  if (!item || (typeof item.expiresAt === 'number' && item.expiresAt <= Math.floor(nowMs / 1000))) return undefined;
  return reportOf(item);
}
