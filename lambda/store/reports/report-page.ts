import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ReportPage, ReportPageQuery } from '../../control/ports';
import { InvalidCursorError } from '../../domain/errors';
import { storageCall } from '../errors';
import { newestItems, type Position } from './newest-first';
import { feedPartition, reportOf } from './report-reader';
import { eventKey, featureRequestKey, type ReportKind } from '../schema';

/** Where a page ended: bound to its factory and kind, opaque to callers (base64url JSON). */
function encodeReportCursor(factoryId: string, kind: ReportKind, position: Position): string {
  return Buffer.from(JSON.stringify({ f: factoryId, k: kind, pk: position.pk, r: position.receivedAt })).toString('base64url');
}

function decodeReportCursor(cursor: string, factoryId: string, kind: ReportKind): Position {
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
  return { pk, receivedAt: r };
}

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
  const after = query.cursor === undefined ? undefined : decodeReportCursor(query.cursor, factoryId, kind);
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
  return { items: items.map((entry) => entry.report), ...(found.length > query.limit && last ? { next: encodeReportCursor(factoryId, kind, last.position) } : {}) };
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
