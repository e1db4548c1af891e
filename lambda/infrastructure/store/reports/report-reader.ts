import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { eventViewOf } from './event-items';
import { feedbackViewOf } from '../feedback/feedback-items';
import { newestItems, type Partition } from './newest-first';
import type { ReportKind } from '../../../ingest/issues/stored-event';
import { FEEDBACK_KEY_PREFIX, feedOf, REPORT_BOOKKEEPING, REPORTS_BY_FEED } from '../schema';

export interface ReadOptions {
  /** Only reports received at or after this time (ISO 8601 UTC). */
  since?: string;
  /** Events of this type only. */
  type?: string;
  /** At most this many. */
  limit?: number;
  /** Items past this time (epoch ms) have expired: DynamoDB removes them within days, the reader skips them now. */
  nowMs?: number;
  /** Index entries per Query (tests read one at a time). */
  pageSize?: number;
}

/** A stored report as the control room reads it: the item without its bookkeeping (an event's issue under `issueId`). */
export function reportOf(item: Record<string, unknown>): Record<string, unknown> {
  if (String(item.pk).startsWith('event#')) return eventViewOf(item);
  if (String(item.pk).startsWith(FEEDBACK_KEY_PREFIX)) return feedbackViewOf(item);
  const report = { ...item };
  for (const name of REPORT_BOOKKEEPING) delete report[name];
  return report;
}

/** A factory's feed of one kind in the byFeed index: feed pages of events, or feature requests themselves. */
export const feedPartition = (factoryId: string, kind: ReportKind): Partition => ({ ...REPORTS_BY_FEED, value: feedOf(factoryId, kind) });

/**
 * Reads one factory's events or feature requests newest first
 * (newest-first.ts over its feed in the byFeed index), reading as many
 * items at a time as are asked for (at most 100). Nothing of another factory
 * is read.
 */
export async function* readReports(
  doc: DynamoDBDocumentClient,
  tableName: string,
  factoryId: string,
  kind: ReportKind,
  options: ReadOptions = {},
): AsyncGenerator<Record<string, unknown>> {
  let left = options.limit ?? Number.POSITIVE_INFINITY;
  if (left <= 0) return;
  const reading = newestItems(doc, tableName, feedPartition(factoryId, kind), {
    since: options.since,
    type: options.type,
    nowMs: options.nowMs ?? Date.now(),
    pageSize: options.pageSize,
    chunk: Math.min(100, left),
  });
  for await (const { item } of reading) {
    yield reportOf(item);
    left -= 1;
    if (left <= 0) return;
  }
}
