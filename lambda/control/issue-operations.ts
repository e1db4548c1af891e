import { issueView, type IssueStore } from '../issues/issue';
import { STATUS_OF, type IssueRequest } from './issue-requests';

/** No such issue in the factory (or it expired): the caller's 404. */
export class IssueNotFoundError extends Error {
  override readonly name = 'IssueNotFoundError';
}

const notFound = (request: { factoryId: string; issueId: string }) =>
  new IssueNotFoundError(`no issue ${request.issueId} in ${request.factoryId} (it may have expired: an issue lives until no event has come for the retention period)`);

/**
 * Runs one issue operation of the control room (docs/report-issues.md).
 * The audit fields say what was asked and how many came back; never an
 * event's text.
 */
export async function runIssueOperation(
  issues: IssueStore,
  request: IssueRequest,
  caller: { principal: string },
  now: Date,
): Promise<{ body: Record<string, unknown>; audit: Record<string, string | number | boolean | undefined> }> {
  const nowMs = now.getTime();
  switch (request.operation) {
    case 'issues.list': {
      const [found, filtered] = await Promise.all([
        issues.listIssues(request.factoryId, { status: request.status, limit: request.limit, nowMs }),
        issues.filteredCounts(request.factoryId),
      ]);
      return { body: { issues: found.map(issueView), filtered: filtered.counts }, audit: { status: request.status, count: found.length } };
    }
    case 'issues.show': {
      const [issue, events] = await Promise.all([
        issues.getIssue(request.factoryId, request.issueId, nowMs),
        issues.issueEvents(request.factoryId, request.issueId, request.limit, nowMs),
      ]);
      if (!issue) throw notFound(request);
      return { body: { issue: issueView(issue), events }, audit: { events: events.length } };
    }
    default: {
      const status = STATUS_OF[request.operation];
      const change = await issues.setIssueStatus(request.factoryId, request.issueId, { status, at: now.toISOString(), by: caller.principal, nowMs });
      if (!change) throw notFound(request);
      return { body: { issue: issueView(change.issue), previousStatus: change.previous }, audit: { from: change.previous, to: status } };
    }
  }
}
