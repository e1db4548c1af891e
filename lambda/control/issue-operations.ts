import * as z from 'zod/mini';
import { ISSUE_STATUSES, issueView, type IssueStatus } from '../issues/issue';
import { factoryId, issueId, limit } from './fields';
import { ControlError, operation } from './operation';

/** Issues per list, and an issue's latest events per page. */
export const ISSUES_DEFAULT = 100;
export const ISSUES_MAX = 1000;
export const ISSUE_EVENTS_DEFAULT = 10;
export const ISSUE_EVENTS_MAX = 100;

const notFound = (request: { factoryId: string; issueId: string }) =>
  new ControlError(404, `no issue ${request.issueId} in ${request.factoryId} (it may have expired: an issue lives until no event has come for the retention period)`);

/** A status change: one conditional write, when and by whom recorded. */
function setStatus(status: IssueStatus) {
  return operation({
    request: z.strictObject({ factoryId, issueId }),
    run: async (request, { deps, caller, now }) => {
      const change = await deps.issues.setIssueStatus(request.factoryId, request.issueId, { status, at: now.toISOString(), by: caller.principal, nowMs: now.getTime() });
      if (!change) throw notFound(request);
      return { body: { issue: issueView(change.issue), previousStatus: change.previous }, audit: { from: change.previous, to: status } };
    },
  });
}

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
      limit: limit(ISSUES_MAX),
    }),
    defaults: (request) => ({ ...request, limit: request.limit ?? ISSUES_DEFAULT }),
    run: async (request, { deps, now }) => {
      const [found, filtered] = await Promise.all([
        deps.issues.listIssues(request.factoryId, { status: request.status, limit: request.limit, nowMs: now.getTime() }),
        deps.issues.filteredCounts(request.factoryId),
      ]);
      return { body: { issues: found.map(issueView), filtered: filtered.counts }, audit: { status: request.status, count: found.length } };
    },
  }),

  'issues.show': operation({
    request: z.strictObject({ factoryId, issueId, limit: limit(ISSUE_EVENTS_MAX) }),
    defaults: (request) => ({ ...request, limit: request.limit ?? ISSUE_EVENTS_DEFAULT }),
    run: async (request, { deps, now }) => {
      const [issue, events] = await Promise.all([
        deps.issues.getIssue(request.factoryId, request.issueId, now.getTime()),
        deps.issues.issueEvents(request.factoryId, request.issueId, request.limit, now.getTime()),
      ]);
      if (!issue) throw notFound(request);
      return { body: { issue: issueView(issue), events }, audit: { events: events.length } };
    },
  }),

  'issues.resolve': setStatus('resolved'),
  'issues.ignore': setStatus('ignored'),
  'issues.reopen': setStatus('open'),
};
