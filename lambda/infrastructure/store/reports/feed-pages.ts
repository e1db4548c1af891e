import { newestEventFirst } from '../../../ingest/issues/stored-event';
import { EXPIRES_AT, REPORTS_BY_FEED, REPORTS_BY_ISSUE, feedOf } from '../schema';

/**
 * Feed pages (docs/report-issues.md#reading-events-newest-first): the tally
 * writes, for each stream batch, one page per factory and one per issue,
 * listing the batch's events of it as refs ("<receivedAt> <eventId>
 * <type>"). Pages, not events, sit in the indexes: a factory's page in byFeed
 * under `<factory>#events`, an issue's in byIssue under its issue id, each
 * sorted by its newest ref. So an index partition is written once per batch,
 * not once per event (docs/capacity.md), and the readers (newest-first.ts)
 * read pages, then the events they list.
 *
 * A page spans at most MAX_PAGE_SPAN_MS of receive times (a batch is split
 * when it spans more), which bounds how far the readers look past a cursor.
 * A page is keyed by its stream shard and its batch's first and last
 * records, so a redelivered batch writes the same page again; a batch
 * redelivered cut elsewhere lists an event on two pages, which the readers
 * read once.
 */
export const MAX_PAGE_SPAN_MS = 5 * 60_000;
/** Refs per page at most: a page item stays far under DynamoDB's 400 KB. */
export const MAX_PAGE_REFS = 2000;

export const PAGE_PREFIX = { feed: 'page#', issue: 'ipage#' } as const;

/** One event on a page: enough to order it, filter it by type and read it. */
export interface EventRef {
  receivedAt: string;
  eventId: string;
  type: string;
}

/**
 * A ref as a page holds it: `<time> <eventId>`, then ` <type>` unless the type is `error`. The time is the receive
 * time's epoch milliseconds in base 36 (8 characters where the ISO text takes 24) when that gives back the same text,
 * else the text itself. A page's write units grow with its refs' bytes, about a fifth of an event's units before
 * (docs/capacity.md#the-tallys-share); pages written as `<ISO time> <eventId> <type>` read the same.
 */
export const refText = (ref: EventRef): string => `${compactTime(ref.receivedAt)} ${ref.eventId}${ref.type === 'error' ? '' : ` ${ref.type}`}`;

export function refOf(text: string): EventRef | undefined {
  const [time, eventId, type] = text.split(' ');
  return time && eventId ? { receivedAt: isoTime(time), eventId, type: type ?? 'error' } : undefined;
}

function compactTime(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isSafeInteger(ms) && ms >= 0 && new Date(ms).toISOString() === iso ? ms.toString(36) : iso;
}

/** An ISO time holds `-`; a base-36 one only digits and lower-case letters. */
const isoTime = (time: string): string => (/^[0-9a-z]{1,11}$/.test(time) ? new Date(Number.parseInt(time, 36)).toISOString() : time);

/** Whom a page lists events of. */
export type PageOwner = { factoryId: string } | { factoryId: string; issueId: string };

/** The refs of one batch as pages: newest first within a page, each spanning at most MAX_PAGE_SPAN_MS. */
export function paginate(refs: readonly EventRef[]): EventRef[][] {
  const sorted = [...refs].sort(newestEventFirst);
  const pages: EventRef[][] = [];
  for (const ref of sorted) {
    const page = pages[pages.length - 1];
    const newest = page?.[0];
    if (page && newest && Date.parse(newest.receivedAt) - Date.parse(ref.receivedAt) <= MAX_PAGE_SPAN_MS && page.length < MAX_PAGE_REFS) page.push(ref);
    else pages.push([ref]);
  }
  return pages;
}

/**
 * A page's item: its key (owner, stream shard, first and last record of the batch, part), its index keys and its
 * refs. The same batch delivered again writes the same pages; one cut otherwise (split in two after a failure, read
 * by a second consumer) writes pages of its own beside them, never over them, so no event a count already holds
 * drops off its lists when a shorter cut of its batch comes after it.
 */
export function pageItem(
  owner: PageOwner,
  origin: { shardKey: string; firstSeq: string; lastSeq: string; part: number },
  refs: readonly EventRef[],
  expiresAt: number,
): Record<string, unknown> {
  const where = `${origin.shardKey}#${origin.firstSeq}-${origin.lastSeq}#${origin.part}`;
  const newest = refs[0]?.receivedAt ?? '';
  const oldest = refs[refs.length - 1]?.receivedAt ?? '';
  const base = { receivedAt: newest, oldest, [EXPIRES_AT]: expiresAt, refs: refs.map(refText) };
  if ('issueId' in owner) return { pk: `${PAGE_PREFIX.issue}${owner.issueId}#${where}`, [REPORTS_BY_ISSUE.partitionKey]: owner.issueId, ...base };
  return { pk: `${PAGE_PREFIX.feed}${owner.factoryId}#${where}`, [REPORTS_BY_FEED.partitionKey]: feedOf(owner.factoryId, 'events'), ...base };
}

/** Whether an index entry is a page (its refs are on the item) or an item of its own (an issue, an event of the earlier layout). */
export const isPageKey = (pk: string): boolean => pk.startsWith(PAGE_PREFIX.feed) || pk.startsWith(PAGE_PREFIX.issue);
