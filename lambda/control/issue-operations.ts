import * as z from 'zod/mini';
import { ISSUE_STATUSES, issueView, type IssueStatus } from '../ingest/issues/issue';
import {
  decodeIssueCursor,
  encodeIssueCursor,
  ISSUE_SORTS,
  ISSUES_SCAN_MAX,
  pageOfIssues,
  positionOf,
  SEARCH_MAX,
  type IssueListQuery,
} from '../ingest/issues/issue-list';
import { issueTrend } from '../ingest/issues/trend';
import { companiesOfPeople, type AffectedCompany, type AffectedPerson } from '../ingest/issues/affected';
import { cursor, described, factoryId, issueId, limit } from './fields';
import { ControlError, operation, withCursor } from './operation';
import type { ControlDependencies } from './ports';
import type { EventView } from '../ingest/issues/stored-event';
import type { FilteredCounts, SetAsideCounts } from '../ingest/issues/issue';
import type { IssueTrend } from '../ingest/issues/trend';
import { withDisplayFrames } from './event-frames';
import { countingIssueId, issueByAnyId } from './issue-ids';

/** Issues per list, and an issue's latest events per page. */
export const ISSUES_DEFAULT = 100;
export const ISSUES_MAX = 1000;
export const ISSUE_EVENTS_DEFAULT = 10;
export const ISSUE_EVENTS_MAX = 100;
/** People an issue's page lists at most (its companies are summed from them): the bound on what one page reads. */
export const AFFECTED_SHOWN = 500;

const notFound = (request: { factoryId: string; issueId: string }) =>
  new ControlError(
    404,
    `no issue ${request.issueId} in ${request.factoryId} (it may have expired: an issue lives until no event has come for the retention period)`,
  );

/** A status change: one conditional write, when and by whom recorded. */
function setStatus(status: IssueStatus) {
  return operation({
    request: z.strictObject({ factoryId, issueId }),
    run: async (request, { deps, caller, now }) => {
      // Any id an event or alert showed: its issue's (./issue-ids.ts).
      const issueId = await countingIssueId(deps.issues, request.factoryId, request.issueId, now.getTime());
      const change = await deps.issues.setIssueStatus(request.factoryId, issueId, {
        status,
        at: now.toISOString(),
        by: caller.principal,
        nowMs: now.getTime(),
      });
      if (!change) throw notFound(request);
      return { body: { issue: issueView(change.issue), previousStatus: change.previous }, audit: { from: change.previous, to: status } };
    },
  });
}

/**
 * One page of the issue list (docs/report-issues.md#the-issue-list). Most
 * recently seen first without a search: read from the cursor on, one more
 * than the page to know whether more remain. By events or visitors, or with
 * a search: the factory's issues most recently seen first, at most
 * ISSUES_SCAN_MAX of them, sorted and filtered here; `scanned` says how many
 * were read and `complete` whether that was all of them.
 */
async function listPage(deps: ControlDependencies, factoryId: string, query: IssueListQuery, nowMs: number) {
  const { status, sort, search, limit, after } = query;
  if (sort === 'lastSeen' && search === undefined) {
    const found = await deps.issues.listIssues(factoryId, { status, limit: limit + 1, nowMs, ...(after ? { after } : {}) });
    const issues = found.slice(0, limit);
    const last = issues[issues.length - 1];
    return { issues, ...(found.length > limit && last ? { next: positionOf(last, sort) } : {}) };
  }
  const read = await deps.issues.listIssues(factoryId, { status, limit: ISSUES_SCAN_MAX + 1, nowMs });
  const complete = read.length <= ISSUES_SCAN_MAX;
  const scanned = read.slice(0, ISSUES_SCAN_MAX);
  return { ...pageOfIssues(scanned, query), scanned: scanned.length, complete };
}

const searchField = z.optional(
  described(
    z
      .string({ error: 'search must be a string (a part of the title)' })
      .check(z.minLength(1, { error: 'search must not be empty' }), z.maxLength(SEARCH_MAX, { error: `search must be at most ${SEARCH_MAX} characters` })),
    { placeholder: 'text' },
  ),
);

/**
 * Bug-report issues (docs/report-issues.md): list, show, and change a
 * status. The audit fields say what was asked and how many came back; never
 * an event's text.
 */
export const ISSUE_OPERATIONS = {
  'issues.list': operation({
    request: z.strictObject({
      factoryId,
      status: z.optional(z.enum(ISSUE_STATUSES, { error: `status must be one of ${ISSUE_STATUSES.join(', ')}` })),
      sort: z.optional(z.enum(ISSUE_SORTS, { error: `sort must be one of ${ISSUE_SORTS.join(', ')}` })),
      search: searchField,
      limit: limit(ISSUES_MAX),
      cursor,
    }),
    defaults: (request) => ({ ...request, sort: request.sort ?? ISSUE_SORTS[0], limit: request.limit ?? ISSUES_DEFAULT }),
    run: async (request, { deps, now }) => {
      const { factoryId, status, sort, search, limit, cursor } = request;
      const scope = { factoryId, sort, ...(status ? { status } : {}), ...(search !== undefined ? { search } : {}) };
      const after = cursor === undefined ? undefined : decodeIssueCursor(cursor, scope);
      const query: IssueListQuery = { status, sort, search, limit, ...(after ? { after } : {}) };
      const [page, filtered, setAside] = await Promise.all([
        listPage(deps, factoryId, query, now.getTime()),
        deps.issues.filteredCounts(factoryId),
        deps.issues.setAsideCounts(factoryId),
      ]);
      const next = page.next ? encodeIssueCursor(scope, page.next) : undefined;
      const scan = 'scanned' in page ? { scanned: page.scanned, complete: page.complete } : {};
      const aside = { counts: setAside.counts, ...(setAside.last ? { last: setAside.last } : {}) };
      return {
        body: { issues: page.issues.map(issueView), filtered: filtered.counts, setAside: aside, ...withCursor(next), ...scan },
        // The search's length, never its text: it may quote what a visitor's page sent.
        audit: { status, sort, ...(search !== undefined ? { searchLength: search.length } : {}), count: page.issues.length, more: next !== undefined },
      };
    },
  }),

  'issues.show': operation({
    request: z.strictObject({ factoryId, issueId, limit: limit(ISSUE_EVENTS_MAX) }),
    defaults: (request) => ({ ...request, limit: request.limit ?? ISSUE_EVENTS_DEFAULT }),
    run: async (request, { deps, now }) => {
      // Any id an event or alert showed opens the issue that counts it (./issue-ids.ts).
      const issue = await issueByAnyId(deps.issues, request.factoryId, request.issueId, now.getTime());
      if (!issue) throw notFound(request);
      const [events, people] = await Promise.all([
        deps.issues.issueEvents(request.factoryId, issue.issueId, request.limit, now.getTime()),
        deps.issues.peopleOf(request.factoryId, issue.issueId, AFFECTED_SHOWN, now.getTime()),
      ]);
      // Listed under this issue, so counted in it, whatever id each was stored with.
      const shown = await Promise.all(events.map((event) => withDisplayFrames(deps, { ...event, issueId: issue.issueId })));
      // Who it affects (docs/report-issues.md#who-is-affected): companies biggest first, then the people; ids, never an email.
      const affected = { companies: companiesOfPeople(people.items), people: people.items, complete: people.complete };
      return {
        body: { issue: issueView(issue), trend: issueTrend(issue.counts, now.getTime()), affected, events: shown },
        audit: { events: events.length, people: people.items.length },
      };
    },
  }),

  'issues.resolve': setStatus('resolved'),
  'issues.ignore': setStatus('ignored'),
  'issues.reopen': setStatus('open'),
};

// What these operations answer (200), as the control room's pages read it: ./answers.ts names them per operation.
export type IssueListItem = ReturnType<typeof issueView>;
export interface IssueListAnswer {
  issues: IssueListItem[];
  filtered: FilteredCounts['counts'];
  /** Events the tally could not count, per reason, and the latest (docs/report-issues.md#events-set-aside). */
  setAside: Omit<SetAsideCounts, 'factoryId'>;
  cursor?: string;
  /** By events or visitors, or with a search: how many issues were read, and whether that was all of them. */
  scanned?: number;
  complete?: boolean;
}
export interface IssueShowAnswer {
  issue: IssueListItem;
  trend: IssueTrend;
  /** The issue's companies (summed from its people) and people, and whether the people were read whole. */
  affected: { companies: AffectedCompany[]; people: AffectedPerson[]; complete: boolean };
  events: EventView[];
}
/** issues.resolve, issues.ignore, issues.reopen. */
export interface IssueStatusAnswer {
  issue: IssueListItem;
  previousStatus: IssueStatus;
}
