import * as z from 'zod/mini';
import type { AffectedPerson } from '../ingest/issues/affected';
import { issueView, type Issue, type IssueStore } from '../ingest/issues/issue';
import { companyId, factoryId } from './fields';
import { operation } from './operation';
import type { IssueListItem } from './issue-operations';

/**
 * The CRM's side of who an issue affects (docs/report-issues.md#who-is-affected): the issues a company's people hit,
 * and a contact's issues with their status. Read from the (issue, company) and (issue, person) pairs the tally
 * writes, then the issues themselves (one read each, at most AFFECTED_ISSUES_MAX).
 */

/** Issues a company or contact page lists at most. */
export const AFFECTED_ISSUES_MAX = 200;

/** Open issues first, then the most recently seen. */
const openFirst = (a: Issue, b: Issue): number =>
  Number(b.status === 'open') - Number(a.status === 'open') || (a.lastSeen < b.lastSeen ? 1 : a.lastSeen > b.lastSeen ? -1 : 0);

/** The issues of these ids that still exist, open first. */
async function issuesOf(issues: IssueStore, factory: string, issueIds: readonly string[], nowMs: number): Promise<Issue[]> {
  const found = await Promise.all([...new Set(issueIds)].map((issueId) => issues.getIssue(factory, issueId, nowMs)));
  return found.filter((issue): issue is Issue => issue !== undefined).sort(openFirst);
}

/** One issue a contact was counted in, as their page lists it: the issue's list fields and the person's share of it. */
export interface ContactIssue extends IssueListItem {
  person: Pick<AffectedPerson, 'events' | 'firstSeen' | 'lastSeen'>;
}

/** A contact's issues with their status, open first (a contact page, `contacts show`, `export-person`). */
export async function contactIssues(
  issues: IssueStore,
  factory: string,
  contact: string,
  nowMs: number,
): Promise<{ issues: ContactIssue[]; complete: boolean }> {
  const pairs = await issues.issuesOfContact(factory, contact, AFFECTED_ISSUES_MAX, nowMs);
  const shares = new Map(pairs.items.map((pair) => [pair.issueId, pair]));
  const found = await issuesOf(
    issues,
    factory,
    pairs.items.map((pair) => pair.issueId),
    nowMs,
  );
  return {
    issues: found.map((issue) => {
      const { events, firstSeen, lastSeen } = shares.get(issue.issueId) as AffectedPerson;
      return { ...issueView(issue), person: { events, firstSeen, lastSeen } };
    }),
    complete: pairs.complete,
  };
}

export const AFFECTED_OPERATIONS = {
  'companies.issues': operation({
    request: z.strictObject({ factoryId, companyId }),
    run: async (request, { deps, now }) => {
      const pairs = await deps.issues.issuesOfCompany(request.factoryId, request.companyId, AFFECTED_ISSUES_MAX, now.getTime());
      const found = await issuesOf(deps.issues, request.factoryId, pairs.items, now.getTime());
      return {
        body: { issues: found.map(issueView), complete: pairs.complete },
        audit: { companyId: request.companyId, count: found.length },
      };
    },
  }),
};

/** companies.issues: the issues the company's people hit, open first. */
export interface CompanyIssuesAnswer {
  issues: IssueListItem[];
  complete: boolean;
}
