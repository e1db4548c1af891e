import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { contactId as contactIdOf } from '../../../contacts/domain/contact-id';
import { decodeCursor, encodeCursor } from '../../../kernel/cursor';
import type { StoredEmail } from '../../../kernel/email';
import { batchGet } from '../batch-get';
import { storedEventOf } from '../reports/event-items';
import { byReceivedDesc, newestKeys, readInOrder, type OrderedKey, type Partition, type Position } from '../reports/newest-first';
import {
  CONTACTS_KEY,
  eventKey,
  EXPIRES_AT,
  FEEDBACK_SHARDS,
  feedbackFeed,
  feedbackKey,
  issueFeedbackFeed,
  pendingFeedbackFeed,
  REPORTS_BY_FEED,
  REPORTS_KEY,
  type TableNames,
} from '../schema';
import type { FeedbackPage, FeedbackReader, FeedbackView } from '../../../ingest/feedback/stored-feedback';
import { feedbackViewOf } from './feedback-items';

/**
 * Reading user feedback (docs/feedback.md#reading-it): a factory's newest
 * first (its shards' byFeed partitions merged), an issue's (its links, and the
 * pending links whose event turned out to be of the issue), each tied at read
 * time to the issue of its event when that event came after it, and to its
 * email's contact when that contact exists. Never a scan.
 */

type Tables = Pick<TableNames, 'reports' | 'contacts'>;

/** Pending links looked at per issue read: feedback whose event came later than it, newest first (docs/feedback.md#ties). */
export const PENDING_LOOKUP = 200;

const partition = (value: string): Partition => ({ ...REPORTS_BY_FEED, value });
const scope = (factoryId: string) => ({ factoryId, list: 'feedback' });

function positionOf(value: unknown): Position | undefined {
  const { r, pk } = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return typeof r === 'string' && typeof pk === 'string' ? { receivedAt: r, pk } : undefined;
}

/** The next key of several newest-first readers, merged: each reader's head compared, the newest handed out. */
async function* merged(readers: AsyncGenerator<OrderedKey>[]): AsyncGenerator<OrderedKey> {
  const heads = await Promise.all(readers.map((reader) => reader.next()));
  for (;;) {
    let best = -1;
    heads.forEach((head, index) => {
      const current = best === -1 ? undefined : heads[best];
      if (!head.done && (current === undefined || current.done || byReceivedDesc(head.value, current.value) < 0)) best = index;
    });
    const head = heads[best];
    if (best === -1 || head === undefined || head.done) return;
    yield head.value;
    heads[best] = await (readers[best] as AsyncGenerator<OrderedKey>).next();
  }
}

async function take(keys: AsyncGenerator<OrderedKey>, count: number): Promise<OrderedKey[]> {
  const taken: OrderedKey[] = [];
  for await (const key of keys) {
    taken.push(key);
    if (taken.length >= count) break;
  }
  return taken;
}

/** The items of these keys that are still there and not expired, in order. */
async function liveItems(doc: DynamoDBDocumentClient, tables: Tables, pks: readonly string[], nowMs: number): Promise<Record<string, unknown>[]> {
  const now = Math.floor(nowMs / 1000);
  return (await readInOrder(doc, tables.reports, pks)).filter((item) => !(typeof item[EXPIRES_AT] === 'number' && (item[EXPIRES_AT] as number) <= now));
}

/** The issue of each stored event among these ids (a filtered one has none). */
async function issuesOfEvents(doc: DynamoDBDocumentClient, tables: Tables, factoryId: string, eventIds: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(eventIds)];
  if (unique.length === 0) return new Map();
  const items = await batchGet(
    doc,
    tables.reports,
    unique.map((id) => ({ [REPORTS_KEY.partitionKey]: eventKey(factoryId, id) })),
    { operation: 'BatchGetItem (feedback: their events)' },
  );
  const issues = new Map<string, string>();
  for (const item of items) {
    const event = storedEventOf(item);
    if (event.issueId !== undefined) issues.set(event.eventId, event.issueId);
  }
  return issues;
}

/** The views tied: an issue found now for feedback whose event came after it, a contact id where the email's contact exists. */
async function tied(doc: DynamoDBDocumentClient, tables: Tables, factoryId: string, items: readonly Record<string, unknown>[]): Promise<FeedbackView[]> {
  const views = items.map(feedbackViewOf);
  const unresolved = views.flatMap((view) => (view.issueId === undefined && view.associatedEventId !== undefined ? [view.associatedEventId] : []));
  const issues = await issuesOfEvents(doc, tables, factoryId, unresolved);
  // An email stored by the ingest is in its stored form already (normalizeEmail's).
  const candidates = new Map(
    views.flatMap((view) => (view.reporter?.email ? [[view.feedbackId, contactIdOf(factoryId, view.reporter.email as StoredEmail)] as const] : [])),
  );
  const contacts = new Set<string>();
  if (candidates.size > 0) {
    const found = await batchGet(
      doc,
      tables.contacts,
      [...new Set(candidates.values())].map((id) => ({ [CONTACTS_KEY.partitionKey]: factoryId, [CONTACTS_KEY.sortKey]: id })),
      { operation: 'BatchGetItem (feedback: their contacts)' },
    );
    for (const item of found) contacts.add(String(item[CONTACTS_KEY.sortKey]));
  }
  return views.map((view) => {
    const issueId = view.issueId ?? (view.associatedEventId === undefined ? undefined : issues.get(view.associatedEventId));
    const contactId = candidates.get(view.feedbackId);
    return { ...view, ...(issueId === undefined ? {} : { issueId }), ...(contactId !== undefined && contacts.has(contactId) ? { contactId } : {}) };
  });
}

/** One page of a factory's feedback, newest first; `cursor` is a page's `next`. */
export async function factoryFeedback(
  doc: DynamoDBDocumentClient,
  tables: Tables,
  factoryId: string,
  options: { limit: number; cursor?: string; nowMs?: number },
): Promise<FeedbackPage> {
  const nowMs = options.nowMs ?? Date.now();
  const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor, scope(factoryId), positionOf);
  const shards = Array.from({ length: FEEDBACK_SHARDS }, (_, shard) =>
    newestKeys(doc, tables.reports, partition(feedbackFeed(factoryId, shard)), {
      nowMs,
      pageSize: Math.min(100, options.limit + 1),
      ...(after ? { after } : {}),
    }),
  );
  const keys = await take(merged(shards), options.limit + 1);
  const page = keys.slice(0, options.limit);
  const items = await tied(
    doc,
    tables,
    factoryId,
    await liveItems(
      doc,
      tables,
      page.map((key) => key.pk),
      nowMs,
    ),
  );
  const last = page[page.length - 1];
  return { items, ...(keys.length > options.limit && last ? { next: encodeCursor(scope(factoryId), { r: last.receivedAt, pk: last.pk }) } : {}) };
}

/** A link's feedback key: `flink#<factory>#<id>` → `feedback#<factory>#<id>`. */
const feedbackOfLink = (factoryId: string, linkPk: string): string => feedbackKey(factoryId, linkPk.slice(linkPk.lastIndexOf('#') + 1));

/** An issue's newest feedback (at most `limit`): linked to it when stored, or pending then and of its event now. */
export async function issueFeedback(
  doc: DynamoDBDocumentClient,
  tables: Tables,
  factoryId: string,
  issueId: string,
  options: { limit: number; nowMs?: number },
): Promise<FeedbackView[]> {
  const nowMs = options.nowMs ?? Date.now();
  const read = (feed: string, count: number) => take(newestKeys(doc, tables.reports, partition(feed), { nowMs, pageSize: Math.min(100, count) }), count);
  const [linked, pending] = await Promise.all([
    read(issueFeedbackFeed(factoryId, issueId), options.limit),
    read(pendingFeedbackFeed(factoryId), PENDING_LOOKUP),
  ]);
  const pendingItems = await liveItems(
    doc,
    tables,
    pending.map((key) => feedbackOfLink(factoryId, key.pk)),
    nowMs,
  );
  const issues = await issuesOfEvents(
    doc,
    tables,
    factoryId,
    pendingItems.flatMap((item) => (typeof item.associatedEventId === 'string' ? [item.associatedEventId] : [])),
  );
  const ofIssue = pendingItems.filter((item) => typeof item.associatedEventId === 'string' && issues.get(item.associatedEventId) === issueId);
  const linkedItems = await liveItems(
    doc,
    tables,
    linked.map((key) => feedbackOfLink(factoryId, key.pk)),
    nowMs,
  );
  const all = [...new Map([...linkedItems, ...ofIssue].map((item) => [String(item.pk), item])).values()]
    .sort((a, b) => byReceivedDesc({ receivedAt: String(a.receivedAt), pk: String(a.pk) }, { receivedAt: String(b.receivedAt), pk: String(b.pk) }))
    .slice(0, options.limit);
  return (await tied(doc, tables, factoryId, all)).map((view) => ({ ...view, issueId }));
}

/** The readers above as the control room's port. */
export const dynamoFeedbackReader = (doc: DynamoDBDocumentClient, tables: Tables): FeedbackReader => ({
  list: (factoryId, options) => factoryFeedback(doc, tables, factoryId, options),
  ofIssue: (factoryId, issueId, options) => issueFeedback(doc, tables, factoryId, issueId, options),
});
