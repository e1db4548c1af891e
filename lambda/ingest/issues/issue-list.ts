import { descending } from '../../kernel/descending';
import { decodeCursor, encodeCursor } from '../../kernel/cursor';
import type { Issue, IssueStatus, ListPosition } from './issue';
import { visitorCount } from './visitors';
import { noneAffected } from './affected';

/**
 * The issue list's orders, title search and cursor
 * (docs/report-issues.md#the-issue-list): pure, so the control room's
 * operation pages the same way on every store.
 *
 * Most recently seen first is the index's own order: a page is read from
 * the cursor on, at the cost of the page. Most events, most visitors, most
 * people (the contacts counted, ./affected.ts) and a title search have no index: they read the factory's issues most recently
 * seen first, at most ISSUES_SCAN_MAX of them, and sort or filter those.
 */
export const ISSUE_SORTS = ['lastSeen', 'events', 'visitors', 'people'] as const;
export type IssueSort = (typeof ISSUE_SORTS)[number];

/** Issues read at most for a sort by events, visitors or people, or a title search: the bound on what one such page costs. */
export const ISSUES_SCAN_MAX = 2000;
/** A title search: at most this many characters. */
export const SEARCH_MAX = 200;

/** The value an issue sorts by: last seen (ISO time), its count, its visitors, or its people (contacts, and those not in the CRM). */
export function sortValue(issue: Pick<Issue, 'lastSeen' | 'count' | 'visitors' | 'affected'>, sort: IssueSort): string | number {
  if (sort === 'lastSeen') return issue.lastSeen;
  if (sort === 'events') return issue.count;
  if (sort === 'people') {
    const { contacts, notInCrm } = issue.affected ?? noneAffected();
    return contacts + notInCrm;
  }
  return visitorCount(issue.visitors).count;
}

/** Greatest first, then by id descending: a total order, so a cursor says exactly where a page ended. */
export const comparePositions = descending<ListPosition>(
  (position) => position.value,
  (position) => position.issueId,
);

export const positionOf = (issue: Issue, sort: IssueSort): ListPosition => ({ value: sortValue(issue, sort), issueId: issue.issueId });

/** Whether a title contains the search, ignoring case. */
export function titleMatches(title: string, search: string): boolean {
  return title.toLocaleLowerCase('en').includes(search.toLocaleLowerCase('en'));
}

/** What a list asks for besides the factory. */
export interface IssueListQuery {
  status?: IssueStatus;
  sort: IssueSort;
  search?: string;
  limit: number;
  after?: ListPosition;
}

/**
 * A page of `candidates` (issues already filtered by status): matching the
 * search, in the sort's order, after the cursor's position, at most
 * `limit`, and the position to go on from when more remain.
 */
export function pageOfIssues(candidates: readonly Issue[], query: IssueListQuery): { issues: Issue[]; next?: ListPosition } {
  const { search, sort, after, limit } = query;
  const ordered = candidates
    .filter((issue) => search === undefined || titleMatches(issue.title, search))
    .filter((issue) => after === undefined || comparePositions(after, positionOf(issue, sort)) < 0)
    .sort((a, b) => comparePositions(positionOf(a, sort), positionOf(b, sort)));
  const issues = ordered.slice(0, limit);
  const last = issues[issues.length - 1];
  return { issues, ...(ordered.length > limit && last ? { next: positionOf(last, sort) } : {}) };
}

/** What a cursor is bound to: another factory, status, order or search cannot go on from it. */
interface CursorScope {
  factoryId: string;
  status?: IssueStatus;
  sort: IssueSort;
  search?: string;
}

/** The list a cursor is bound to (../../kernel/cursor.ts): another factory, status, order or search cannot go on from it. */
const listOf = ({ factoryId, status, sort, search }: CursorScope) => ({ factoryId, list: `issues ${JSON.stringify([status ?? null, sort, search ?? null])}` });

export function encodeIssueCursor(scope: CursorScope, position: ListPosition): string {
  return encodeCursor(listOf(scope), { v: position.value, i: position.issueId });
}

export function decodeIssueCursor(cursor: string, scope: CursorScope): ListPosition {
  return decodeCursor(cursor, listOf(scope), (position) => {
    const { v, i } = (typeof position === 'object' && position !== null ? position : {}) as Record<string, unknown>;
    const value = sortValueOf(scope.sort, v);
    return typeof i === 'string' && value !== undefined ? { value, issueId: i } : undefined;
  });
}

const sortValueOf = (sort: IssueSort, value: unknown): string | number | undefined =>
  sort === 'lastSeen' ? (typeof value === 'string' ? value : undefined) : typeof value === 'number' && Number.isFinite(value) ? value : undefined;
