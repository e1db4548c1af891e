import { PERIOD_NAMES, type PeriodCounts } from '../../../ingest/issues/buckets';
import { ISSUE_ID_PATTERN, ISSUE_STATUSES, type FilteredCounts, type Issue, type IssueStatus } from '../../../ingest/issues/issue';
import { FILTER_REASONS, type FilterReason } from '../../../ingest/issues/stored-event';
import { canonical, type VisitorSample } from '../../../ingest/issues/visitors';

/**
 * How issues sit in the reports table (key layout in ./schema.ts): one item
 * per factory and issue, keyed `issue#<factory>#<iss_…>`, in the byFeed
 * index under `<factory>#issues#<status>` sorted by `receivedAt` (the last
 * event's receive time), so that listing one status most recently seen first
 * is one Query. The issue id lives in the key only: an issue item carries no
 * `issueId` attribute, so it stays out of the byIssue index of feed pages.
 *
 * The tally (tally-writes.ts) also keeps on it the counts per period (maps
 * `m5`, `h1`, `d1`: ../issues/buckets.ts) and its marks (`marks`: per stream
 * shard, the last record counted), which are bookkeeping, not the issue.
 */
export const MARKS_ATTRIBUTE = 'marks';
/** The visitor sample (../issues/visitors.ts): a string set of hashes, and the level they pass (absent: 0). */
export const VISITORS_ATTRIBUTE = 'visitors';
export const VISITOR_LEVEL_ATTRIBUTE = 'vlevel';
const ISSUE_PREFIX = 'issue#';
export const issueKey = (factoryId: string, issueId: string): string => `${ISSUE_PREFIX}${factoryId}#${issueId}`;

/** The factory and issue an item's key names; undefined for any other item of the table. */
export function issueOfKey(pk: unknown): { factoryId: string; issueId: string } | undefined {
  if (typeof pk !== 'string' || !pk.startsWith(ISSUE_PREFIX)) return undefined;
  const cut = pk.lastIndexOf('#');
  const factoryId = pk.slice(ISSUE_PREFIX.length, cut);
  const issueId = pk.slice(cut + 1);
  return factoryId.length > 0 && ISSUE_ID_PATTERN.test(issueId) ? { factoryId, issueId } : undefined;
}

/** Each period's counts (../../issues/buckets.ts) sit in a map attribute named as the period is. */
const countsAttribute = (period: (typeof PERIOD_NAMES)[number]): string => period;

/** Whether the item keeps counts per period (items written before they existed do not). */
export const hasPeriodCounts = (item: Record<string, unknown>): boolean => PERIOD_NAMES.every((period) => item[countsAttribute(period)] !== undefined);
export const filteredKey = (factoryId: string): string => `filtered#${factoryId}`;
export const issueFeedOf = (factoryId: string, status: IssueStatus): string => `${factoryId}#issues#${status}`;

/** Attributes of the filtered item, per reason. */
export const FILTERED_ATTRIBUTE: Record<FilterReason, string> = { 'browser-extension': 'browserExtension', 'script-error': 'scriptError' };

/** An issue item as the control room reads it; its id from its key, its counts per period together. */
export function itemToIssue(item: Record<string, unknown>): Issue {
  const { pk, feed: _feed, receivedAt: _receivedAt, [MARKS_ATTRIBUTE]: _marks, [VISITORS_ATTRIBUTE]: hashes, [VISITOR_LEVEL_ATTRIBUTE]: level, ...rest } = item;
  const visitors = visitorSampleOf(hashes, level);
  const issueId = String(pk).slice(String(pk).lastIndexOf('#') + 1);
  const counts: Partial<PeriodCounts> = {};
  for (const period of PERIOD_NAMES) {
    const map = rest[countsAttribute(period)];
    delete rest[countsAttribute(period)];
    if (map && typeof map === 'object') counts[period] = map as Record<string, number>;
  }
  return { issueId, ...rest, ...(Object.keys(counts).length > 0 ? { counts } : {}), ...(visitors ? { visitors } : {}) } as Issue;
}

/**
 * An issue item's image (a stream record's OldImage or NewImage,
 * unmarshalled) as the issue; undefined for any other item of the table, or
 * an image too incomplete to be one (no first seen, no known status). What
 * an older item lacks reads as empty: no title, no events.
 */
export function issueOfImage(image: Record<string, unknown> | undefined): Issue | undefined {
  const key = issueOfKey(image?.pk);
  if (!image || !key || typeof image.firstSeen !== 'string' || !(ISSUE_STATUSES as readonly unknown[]).includes(image.status)) return undefined;
  const issue = itemToIssue(image);
  return {
    ...issue,
    ...key,
    title: typeof issue.title === 'string' ? issue.title : '',
    count: typeof issue.count === 'number' ? issue.count : 0,
    lastSeen: typeof issue.lastSeen === 'string' ? issue.lastSeen : image.firstSeen,
  };
}

/**
 * The stored sample, as every store keeps it (canonical): the set may hold
 * more than the sample keeps for a moment (two shards' writes at once) until
 * the tally raises its level; read here as it will be.
 */
export function visitorSampleOf(hashes: unknown, level: unknown): VisitorSample | undefined {
  const list =
    hashes instanceof Set || Array.isArray(hashes) ? [...(hashes as Iterable<unknown>)].filter((hash): hash is string => typeof hash === 'string') : [];
  if (list.length === 0) return undefined;
  return canonical({ level: typeof level === 'number' && Number.isInteger(level) && level >= 0 ? level : 0, hashes: list });
}

export function itemToFilteredCounts(factoryId: string, item: Record<string, unknown> | undefined): FilteredCounts {
  const counts: FilteredCounts['counts'] = {};
  for (const reason of FILTER_REASONS) {
    const value = item?.[FILTERED_ATTRIBUTE[reason]];
    if (typeof value === 'number') counts[reason] = value;
  }
  return { factoryId, counts, ...(typeof item?.lastSeen === 'string' ? { lastSeen: item.lastSeen } : {}) };
}
