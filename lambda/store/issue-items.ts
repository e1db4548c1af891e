import { FILTER_REASONS, type FilterReason, type FilteredCounts, type Issue, type IssueStatus } from '../issues/issue';

/**
 * How issues sit in the reports table (key layout in ./schema.ts): one item
 * per factory and issue, keyed `issue#<factory>#<iss_…>`, in the byFeed
 * index under `<factory>#issues#<status>` sorted by `receivedAt` (the last
 * event's receive time), so that listing one status most recently seen first
 * is one Query. The issue id lives in the key only: an issue item carries no
 * `issueId` attribute, so it stays out of the byIssue index of its events.
 */
export const issueKey = (factoryId: string, issueId: string): string => `issue#${factoryId}#${issueId}`;
export const filteredKey = (factoryId: string): string => `filtered#${factoryId}`;
export const issueFeedOf = (factoryId: string, status: IssueStatus): string => `${factoryId}#issues#${status}`;

/** Attributes of the filtered item, per reason. */
export const FILTERED_ATTRIBUTE: Record<FilterReason, string> = { 'browser-extension': 'browserExtension', 'script-error': 'scriptError' };

/** An issue item as the control room reads it; its id from its key. */
export function itemToIssue(item: Record<string, unknown>): Issue {
  const { pk, feed: _feed, receivedAt: _receivedAt, ...rest } = item;
  const issueId = String(pk).slice(String(pk).lastIndexOf('#') + 1);
  return { issueId, ...rest } as Issue;
}

export function itemToFilteredCounts(factoryId: string, item: Record<string, unknown> | undefined): FilteredCounts {
  const counts: FilteredCounts['counts'] = {};
  for (const reason of FILTER_REASONS) {
    const value = item?.[FILTERED_ATTRIBUTE[reason]];
    if (typeof value === 'number') counts[reason] = value;
  }
  return { factoryId, counts, ...(typeof item?.lastSeen === 'string' ? { lastSeen: item.lastSeen } : {}) };
}
