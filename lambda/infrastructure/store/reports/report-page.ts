import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ReportPage, ReportPageQuery } from '../../../control/ports';
import { listCursor } from '../../../kernel/cursor';
import { storageCall } from '../errors';
import { newestItems, type Position } from './newest-first';
import { feedPartition, reportOf } from './report-reader';
import type { ReportKind } from '../../../ingest/issues/stored-event';
import { eventKey, featureRequestKey } from '../schema';

/** Where a page of events or feature requests ended (lambda/kernel/cursor.ts): the last item's receive time and key. */
const reportCursor = (kind: ReportKind) =>
  listCursor(kind, (value): Position | undefined => {
    const { pk, receivedAt } = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
    return typeof pk === 'string' && typeof receivedAt === 'string' ? { pk, receivedAt } : undefined;
  });

/**
 * One page of a factory's events or feature requests, newest first, resumable
 * from a cursor (the control room's paged lists): the same read as
 * `readReports`, one item more than asked to know whether more remain.
 */
export async function readReportPage(
  doc: DynamoDBDocumentClient,
  tableName: string,
  factoryId: string,
  kind: ReportKind,
  query: ReportPageQuery,
): Promise<ReportPage> {
  const after = query.cursor === undefined ? undefined : reportCursor(kind).decode(query.cursor, factoryId);
  const found: { position: Position; report: Record<string, unknown> }[] = [];
  const reading = newestItems(doc, tableName, feedPartition(factoryId, kind), {
    after,
    type: query.type,
    nowMs: query.nowMs ?? Date.now(),
    chunk: Math.min(100, query.limit + 1),
  });
  for await (const { key, item } of reading) {
    found.push({ position: key, report: reportOf(item) });
    if (found.length > query.limit) break;
  }
  const items = found.slice(0, query.limit);
  const last = items[items.length - 1];
  return {
    items: items.map((entry) => entry.report),
    ...(found.length > query.limit && last
      ? { next: reportCursor(kind).encode(factoryId, { pk: last.position.pk, receivedAt: last.position.receivedAt }) }
      : {}),
  };
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
