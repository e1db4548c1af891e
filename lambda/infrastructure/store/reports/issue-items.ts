import { PERIOD_NAMES, type PeriodCounts } from '../../../ingest/issues/buckets';
import {
  ISSUE_ID_PATTERN,
  ISSUE_STATUSES,
  SET_ASIDE_REASONS,
  type FilteredCounts,
  type Issue,
  type IssueStatus,
  type SetAsideCounts,
  type SetAsideReason,
} from '../../../ingest/issues/issue';
import type { ItemFacts, ItemState } from '../../../ingest/issues/lifecycle';
import { FILTER_REASONS, type FilterReason } from '../../../ingest/issues/stored-event';
import type { Condition, Expression } from '../expression';
import { AFFECTED_ATTRIBUTES, affectedOfItem } from './issue-affected';
import { VISITOR_ATTRIBUTES, visitorsOfItem } from './visitor-items';

/**
 * How issues sit in the reports table (key layout in ../schema.ts): one item
 * per factory and issue, keyed `issue#<factory>#<iss_…>`, in the byFeed
 * index under `<factory>#issues#<status>` sorted by `receivedAt` (the last
 * event's receive time), so that listing one status most recently seen first
 * is one Query. The issue id lives in the key only: an issue item carries no
 * `issueId` attribute, so it stays out of the byIssue index of feed pages.
 *
 * The tally (tally-writes.ts) also keeps on it the counts per period (maps
 * `m5`, `h1`, `d1`: lambda/ingest/issues/buckets.ts) and its marks (`marks`: per stream
 * shard, the last record counted), which are bookkeeping, not the issue; its
 * visitors (visitor-items.ts) and who it affects (issue-affected.ts).
 */
export const MARKS_ATTRIBUTE = 'marks';
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

/** Each period's counts (lambda/ingest/issues/buckets.ts) sit in a map attribute named as the period is. */
const countsAttribute = (period: (typeof PERIOD_NAMES)[number]): string => period;

export const filteredKey = (factoryId: string): string => `filtered#${factoryId}`;
/** A factory's events set aside by the tally (docs/report-issues.md#events-set-aside): counts per reason, the latest one, marks. */
export const setAsideKey = (factoryId: string): string => `aside#${factoryId}`;
export const issueFeedOf = (factoryId: string, status: IssueStatus): string => `${factoryId}#issues#${status}`;

/** Attributes of the filtered item, per reason. */
export const FILTERED_ATTRIBUTE: Record<FilterReason, string> = { 'browser-extension': 'browserExtension', 'script-error': 'scriptError' };
/** Attributes of the set-aside item, per reason; `lastSetAside` holds the latest one. */
export const SET_ASIDE_ATTRIBUTE: Record<SetAsideReason, string> = { unreadable: 'unreadable', malformed: 'malformed', ungroupable: 'ungroupable' };
const LAST_SET_ASIDE = 'lastSetAside';

/**
 * An item the tally counts into, as its state's facts read on it (lambda/ingest/issues/lifecycle.ts): which maps are
 * its bookkeeping (present: marked), and whether it expires and has a status. An issue does; a factory's counters
 * (filtered events, events set aside) do neither.
 */
export interface ItemKind {
  name: string;
  marked: readonly string[];
  expires: boolean;
  hasStatus: boolean;
}

export const ISSUE_ITEM: ItemKind = { name: 'issue', marked: [MARKS_ATTRIBUTE, ...PERIOD_NAMES.map(countsAttribute)], expires: true, hasStatus: true };
export const counterKinds = {
  filtered: { name: 'filtered', marked: [MARKS_ATTRIBUTE], expires: false, hasStatus: false },
  setAside: { name: 'set-aside', marked: [MARKS_ATTRIBUTE], expires: false, hasStatus: false },
} as const satisfies Record<string, ItemKind>;

/** What an item of this kind shows of its state. */
export function factsOf(kind: ItemKind, item: Record<string, unknown>): ItemFacts {
  const marked = kind.marked.every((map) => item[map] !== undefined);
  return { marked, ...(kind.expires ? { expiresAt: item.expiresAt } : {}), ...(kind.hasStatus ? { status: item.status } : {}) };
}

/**
 * The state as a write's condition: exactly the items of this kind that itemStateOf puts in that state at
 * `nowSeconds` (test/store/item-states-agree.test.ts holds the two equal on DynamoDB Local). Conditions to AND.
 */
export function stateCondition(expression: Expression, kind: ItemKind, state: ItemState, nowSeconds: number): Condition[] {
  // Each built only when the state asks for it: a command may name no attribute its expressions do not use.
  const live = () => (kind.expires ? [expression.or(expression.notExists('expiresAt'), expression.is('expiresAt', '>', nowSeconds))] : []);
  const marked = () => kind.marked.map((map) => expression.exists(map));
  const notMarked = () => {
    const missing = kind.marked.map((map) => expression.notExists(map));
    return missing.length === 1 ? (missing[0] as Condition) : expression.or(...missing);
  };
  switch (state) {
    case 'absent':
      return [expression.notExists('pk')];
    case 'expired':
      if (!kind.expires) throw new Error(`a ${kind.name} item never expires by the tally's rule`);
      return [expression.is('expiresAt', '<=', nowSeconds)];
    case 'unmarked':
      return [expression.exists('pk'), ...live(), notMarked()];
    case 'active':
      return [...live(), ...marked(), ...(kind.hasStatus ? [expression.or(expression.notExists('status'), expression.is('status', '<>', 'resolved'))] : [])];
    case 'resolved':
      if (!kind.hasStatus) throw new Error(`a ${kind.name} item has no status`);
      return [...live(), ...marked(), expression.is('status', '=', 'resolved')];
  }
}

/** An issue item as the control room reads it; its id from its key, its counts per period together, its visitors and people as counts. */
export function itemToIssue(item: Record<string, unknown>): Issue {
  const visitors = visitorsOfItem(item);
  const affected = affectedOfItem(item);
  const { pk, feed: _feed, receivedAt: _receivedAt, [MARKS_ATTRIBUTE]: _marks, ...rest } = item;
  for (const name of [...VISITOR_ATTRIBUTES, ...AFFECTED_ATTRIBUTES]) delete rest[name];
  const issueId = String(pk).slice(String(pk).lastIndexOf('#') + 1);
  const counts: Partial<PeriodCounts> = {};
  for (const period of PERIOD_NAMES) {
    const map = rest[countsAttribute(period)];
    delete rest[countsAttribute(period)];
    if (map && typeof map === 'object') counts[period] = map as Record<string, number>;
  }
  return {
    issueId,
    ...rest,
    ...(Object.keys(counts).length > 0 ? { counts } : {}),
    ...(visitors ? { visitors } : {}),
    ...(affected ? { affected } : {}),
  } as Issue;
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

/** The set-aside item as the control room reads it: counts per reason and the latest one, when there is one. */
export function itemToSetAsideCounts(factoryId: string, item: Record<string, unknown> | undefined): SetAsideCounts {
  const counts: SetAsideCounts['counts'] = {};
  for (const reason of SET_ASIDE_REASONS) {
    const value = item?.[SET_ASIDE_ATTRIBUTE[reason]];
    if (typeof value === 'number') counts[reason] = value;
  }
  const last = item?.[LAST_SET_ASIDE] as Record<string, unknown> | undefined;
  const reason = (SET_ASIDE_REASONS as readonly unknown[]).includes(last?.reason) ? (last?.reason as SetAsideReason) : undefined;
  if (!last || typeof last.eventId !== 'string' || typeof last.at !== 'string' || reason === undefined) return { factoryId, counts };
  return { factoryId, counts, last: { eventId: last.eventId, reason, ...(typeof last.detail === 'string' ? { detail: last.detail } : {}), at: last.at } };
}

/** The attribute of the latest record set aside, as the tally writes it. */
export const lastSetAsideAttribute = (record: { eventId: string; reason: SetAsideReason; detail?: string }, at: string): Record<string, unknown> => ({
  [LAST_SET_ASIDE]: { eventId: record.eventId, reason: record.reason, ...(record.detail === undefined ? {} : { detail: record.detail }), at },
});

export function itemToFilteredCounts(factoryId: string, item: Record<string, unknown> | undefined): FilteredCounts {
  const counts: FilteredCounts['counts'] = {};
  for (const reason of FILTER_REASONS) {
    const value = item?.[FILTERED_ATTRIBUTE[reason]];
    if (typeof value === 'number') counts[reason] = value;
  }
  return { factoryId, counts, ...(typeof item?.lastSeen === 'string' ? { lastSeen: item.lastSeen } : {}) };
}
