import { PERIOD_NAMES, type PeriodCounts } from '../../issues/buckets';
import type { FilteredCounts, Issue, IssueStatus } from '../../issues/issue';
import { FILTER_REASONS, type FilterReason } from '../../issues/stored-event';
import { canonical, type VisitorSample } from '../../issues/visitors';

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
export const issueKey = (factoryId: string, issueId: string): string => `issue#${factoryId}#${issueId}`;
export const filteredKey = (factoryId: string): string => `filtered#${factoryId}`;
export const issueFeedOf = (factoryId: string, status: IssueStatus): string => `${factoryId}#issues#${status}`;

/** Attributes of the filtered item, per reason. */
export const FILTERED_ATTRIBUTE: Record<FilterReason, string> = { 'browser-extension': 'browserExtension', 'script-error': 'scriptError' };

/** An issue item as the control room reads it; its id from its key, its counts per period together. */
export function itemToIssue(item: Record<string, unknown>): Issue {
  const { pk, feed: _feed, receivedAt: _receivedAt, [MARKS_ATTRIBUTE]: _marks, [VISITORS_ATTRIBUTE]: hashes, [VISITOR_LEVEL_ATTRIBUTE]: level, m5, h1, d1, ...rest } = item;
  const visitors = visitorSampleOf(hashes, level);
  const issueId = String(pk).slice(String(pk).lastIndexOf('#') + 1);
  const counts: Partial<PeriodCounts> = {};
  const periods: Record<string, unknown> = { m5, h1, d1 };
  for (const period of PERIOD_NAMES) {
    const map = periods[period];
    if (map && typeof map === 'object') counts[period] = map as Record<string, number>;
  }
  return { issueId, ...rest, ...(Object.keys(counts).length > 0 ? { counts } : {}), ...(visitors ? { visitors } : {}) } as Issue;
}

/**
 * The stored sample, as every store keeps it (canonical): the set may hold
 * more than the sample keeps for a moment (two shards' writes at once) until
 * the tally raises its level; read here as it will be.
 */
export function visitorSampleOf(hashes: unknown, level: unknown): VisitorSample | undefined {
  const list = hashes instanceof Set || Array.isArray(hashes) ? [...(hashes as Iterable<unknown>)].filter((hash): hash is string => typeof hash === 'string') : [];
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
