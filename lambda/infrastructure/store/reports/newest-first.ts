import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { descending } from '../../../kernel/descending';
import { batchGet } from '../batch-get';
import { storageCall } from '../errors';
import { QueryExpression } from '../expression';
import { isPageKey, MAX_PAGE_SPAN_MS, refOf } from './feed-pages';
import { EXPIRES_AT, eventKey, REPORTS_KEY } from '../schema';

/**
 * The one way the reports table is read newest first
 * (docs/report-issues.md#reading-events-newest-first): a Query of one index
 * partition, descending by receive time, whose entries are either items of
 * their own (an issue, a feature request, an event of the earlier layout) or
 * feed pages listing events (feed-pages.ts); then the listed items, read in
 * that order. Pages of different stream shards overlap in time, so a ref is
 * handed out only once no entry still unread can hold a newer one: every
 * unread entry's refs are at most its sort key, which is at most that of the
 * last entry read.
 */

/** An index partition of the reports table to read. */
export interface Partition {
  indexName: string;
  partitionKey: string;
  sortKey: string;
  value: string;
}

/** One item to read: its table key, its receive time and its type (events), in reading order. */
export interface OrderedKey {
  pk: string;
  receivedAt: string;
  type?: string;
}

/** Where a list left off: the last key handed out. */
export interface Position {
  receivedAt: string;
  pk: string;
}

export interface NewestFirstOptions {
  /** Only items received at or after this (ISO 8601 UTC). */
  since?: string;
  /** Only items after this position (a cursor). */
  after?: Position;
  /** Events of this type only. */
  type?: string;
  /** Entries past this time (epoch ms) have expired: skipped in the index. */
  nowMs: number;
  /** Index entries per Query. */
  pageSize?: number;
}

/** Newest first; the same instant by key, descending: every reader orders alike. */
export const byReceivedDesc = descending<Position>(
  (position) => position.receivedAt,
  (position) => position.pk,
);

/** A position `ms` later, as an ISO time. */
const laterBy = (iso: string, ms: number): string => new Date(Date.parse(iso) + ms).toISOString();

/** The keys of a partition's items, newest first, as the listed options say. */
export async function* newestKeys(
  doc: DynamoDBDocumentClient,
  tableName: string,
  partition: Partition,
  options: NewestFirstOptions,
): AsyncGenerator<OrderedKey> {
  const query = new QueryExpression();
  const bySortKey = options.after
    ? // A page up to MAX_PAGE_SPAN_MS newer than the cursor can still list older events.
      query.is(partition.sortKey, '<=', laterBy(options.after.receivedAt, MAX_PAGE_SPAN_MS))
    : options.since !== undefined
      ? query.is(partition.sortKey, '>=', options.since)
      : undefined;
  query.key(query.is(partition.partitionKey, '=', partition.value), ...(bySortKey ? [bySortKey] : []));
  query.filter(query.is(EXPIRES_AT, '>', Math.floor(options.nowMs / 1000)));
  const expressions = query.forQuery();
  const wanted = (key: OrderedKey): boolean =>
    (options.since === undefined || key.receivedAt >= options.since) &&
    (options.type === undefined || key.type === undefined || key.type === options.type) &&
    (options.after === undefined || byReceivedDesc(options.after, key) < 0);

  const waiting: OrderedKey[] = [];
  /** Keys handed out at the latest instant handed out: a ref listed on two pages goes out once. */
  let lastAt = '';
  let handedAtLast = new Set<string>();
  function* handOut(frontier: string | undefined): Generator<OrderedKey> {
    waiting.sort(byReceivedDesc);
    let taken = 0;
    for (const key of waiting) {
      if (frontier !== undefined && key.receivedAt <= frontier) break;
      taken += 1;
      if (key.receivedAt !== lastAt) {
        lastAt = key.receivedAt;
        handedAtLast = new Set();
      }
      if (handedAtLast.has(key.pk)) continue;
      handedAtLast.add(key.pk);
      yield key;
    }
    waiting.splice(0, taken);
  }

  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await storageCall(`Query (${partition.indexName})`, () =>
      doc.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: partition.indexName,
          ...expressions,
          ScanIndexForward: false,
          Limit: options.pageSize ?? 50,
          ExclusiveStartKey: cursor,
        }),
      ),
    );
    cursor = page.LastEvaluatedKey;
    const entries = page.Items ?? [];
    const pageKeys = entries.map((entry) => String(entry.pk)).filter(isPageKey);
    const pages = new Map((await readPages(doc, tableName, pageKeys)).map((item) => [String(item.pk), item]));
    for (const entry of entries) {
      const pk = String(entry.pk);
      const receivedAt = String(entry[partition.sortKey]);
      if (!isPageKey(pk)) {
        const key: OrderedKey = { pk, receivedAt, ...(typeof entry.type === 'string' ? { type: entry.type } : {}) };
        if (wanted(key)) waiting.push(key);
        continue;
      }
      const item = pages.get(pk);
      const factoryId = typeof item?.factoryId === 'string' ? item.factoryId : undefined;
      if (!item || !factoryId || !Array.isArray(item.refs)) continue;
      for (const text of item.refs) {
        const ref = typeof text === 'string' ? refOf(text) : undefined;
        if (!ref) continue;
        const key: OrderedKey = { pk: eventKey(factoryId, ref.eventId), receivedAt: ref.receivedAt, type: ref.type };
        if (wanted(key)) waiting.push(key);
      }
    }
    const last = entries[entries.length - 1];
    const frontier = cursor && last ? String(last[partition.sortKey]) : undefined;
    yield* handOut(frontier);
    // Every entry still unread is older than `since`: none of its items is wanted.
    if (frontier !== undefined && options.since !== undefined && frontier < options.since) break;
  } while (cursor);
  yield* handOut(undefined);
}

async function readPages(doc: DynamoDBDocumentClient, tableName: string, keys: string[]): Promise<Record<string, unknown>[]> {
  if (keys.length === 0) return [];
  return batchGet(
    doc,
    tableName,
    keys.map((pk) => ({ [REPORTS_KEY.partitionKey]: pk })),
    { operation: 'BatchGetItem (feed pages)' },
  );
}

/** The items with these keys, in the keys' order (BatchGetItem answers in any order); ones gone since are skipped. */
export async function readInOrder(doc: DynamoDBDocumentClient, tableName: string, keys: readonly string[]): Promise<Record<string, unknown>[]> {
  if (keys.length === 0) return [];
  const items = await batchGet(
    doc,
    tableName,
    keys.map((pk) => ({ [REPORTS_KEY.partitionKey]: pk })),
    { operation: 'BatchGetItem (reports)' },
  );
  const found = new Map(items.map((item) => [String(item[REPORTS_KEY.partitionKey]), item]));
  return keys.flatMap((pk) => {
    const item = found.get(pk);
    return item ? [item] : [];
  });
}

/**
 * The items of a partition newest first, read `chunk` at a time, expired
 * ones (past their own expiry, not yet removed) skipped.
 */
export async function* newestItems(
  doc: DynamoDBDocumentClient,
  tableName: string,
  partition: Partition,
  options: NewestFirstOptions & { chunk?: number },
): AsyncGenerator<{ key: OrderedKey; item: Record<string, unknown> }> {
  const nowSeconds = Math.floor(options.nowMs / 1000);
  const chunk = options.chunk ?? 100;
  let keys: OrderedKey[] = [];
  const flush = async function* () {
    const items = await readInOrder(
      doc,
      tableName,
      keys.map((key) => key.pk),
    );
    const byKey = new Map(items.map((item) => [String(item.pk), item]));
    for (const key of keys) {
      const item = byKey.get(key.pk);
      if (!item || (typeof item[EXPIRES_AT] === 'number' && (item[EXPIRES_AT] as number) <= nowSeconds)) continue;
      yield { key, item };
    }
    keys = [];
  };
  for await (const key of newestKeys(doc, tableName, partition, options)) {
    keys.push(key);
    if (keys.length >= chunk) yield* flush();
  }
  yield* flush();
}
