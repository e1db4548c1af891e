import type { ContactIssue } from '../../../../lambda/control/affected-operations';
import type { IssueListItem, IssueShowAnswer } from '../../../../lambda/control/issue-operations';
import { appLink, summary, text, time } from '../display';
import { html } from '../html';

/**
 * Who an issue affects, as the control room shows it (docs/control-room-app.md#who-is-affected): on an issue's page its
 * companies first, biggest first, each linking to its page, then its people, each linking to their contact; on a
 * company's or a contact's page, the issues they were counted in. Ids and counts only: the contact's page has the rest.
 */

/** A count as a page reads it from an answer: a number, or 0 for anything else (an older answer, a hostile one). */
const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0);

/** An issue's affected counts as a page reads them; zeros where the answer has none. */
function countsOf(issue: Partial<Pick<IssueListItem, 'affected'>>) {
  const affected: Partial<IssueListItem['affected']> = issue.affected ?? {};
  return { contacts: count(affected.contacts), notInCrm: count(affected.notInCrm), companies: count(affected.companies), visitors: count(affected.visitors) };
}

/** People as a page counts them: contacts, and those not (yet) in the CRM. */
export const peopleText = (issue: Partial<Pick<IssueListItem, 'affected'>>): string => {
  const { contacts, notInCrm } = countsOf(issue);
  return notInCrm > 0 ? `${contacts + notInCrm} (${notInCrm} not in the CRM)` : String(contacts);
};

/** Companies as a page counts them. */
export const companiesText = (issue: Partial<Pick<IssueListItem, 'affected'>>): string => String(countsOf(issue).companies);

/** An issue page's section: its counts, its companies, then its people. */
export function affectedSection(factoryId: string, issue: IssueListItem, affected: Partial<IssueShowAnswer['affected']> | undefined) {
  const companies = Array.isArray(affected?.companies) ? affected.companies : [];
  const people = Array.isArray(affected?.people) ? affected.people : [];
  const { contacts, notInCrm, visitors } = countsOf(issue);
  const counts = html`<p id="affected-counts"><strong>${text(contacts + notInCrm)}</strong> people${
    notInCrm > 0 ? ` (${notInCrm} not in the CRM)` : ''
  } at <strong>${companiesText(issue)}</strong> companies, and <strong>${text(visitors)}</strong> anonymous visitors.</p>`;
  const companyTable =
    companies.length === 0
      ? html`<p class="empty">No company of the CRM.</p>`
      : html`<div class="table-wrap"><table class="list" id="affected-companies"><thead><tr><th scope="col">Company</th><th scope="col">People</th><th scope="col">Events</th><th scope="col">Last seen</th></tr></thead>
<tbody>${companies.map(
          (company) =>
            html`<tr><td>${appLink(['f', factoryId, 'companies', company.companyId], company.companyId)}</td><td>${text(company.people)}</td><td>${text(company.events)}</td><td>${time(company.lastSeen)}</td></tr>`,
        )}</tbody></table></div>`;
  const peopleTable =
    people.length === 0
      ? html`<p class="empty">Nobody named in its events.</p>`
      : html`<div class="table-wrap"><table class="list" id="affected-people"><thead><tr><th scope="col">Person</th><th scope="col">Company</th><th scope="col">Events</th><th scope="col">Last seen</th></tr></thead>
<tbody>${people.map(
          (person) =>
            html`<tr><td>${person.inCrm ? appLink(['f', factoryId, 'contacts', person.contactId], person.contactId) : html`${person.contactId} <span class="muted">(not in the CRM)</span>`}</td>
<td>${person.companyId === undefined ? '' : appLink(['f', factoryId, 'companies', person.companyId], person.companyId)}</td><td>${text(person.events)}</td><td>${time(person.lastSeen)}</td></tr>`,
        )}</tbody></table></div>`;
  const partial = affected?.complete !== false ? '' : html`<p class="muted">The ${text(people.length)} busiest people only (and their companies).</p>`;
  return html`<section aria-labelledby="affected"><h3 id="affected">Who is affected</h3>${counts}${partial}<h4>Companies</h4>${companyTable}<h4>People</h4>${peopleTable}</section>`;
}

/** The issues a company's people or a contact were counted in, open first. */
export function affectedIssuesSection(factoryId: string, id: string, answered: readonly (IssueListItem | ContactIssue)[] | undefined) {
  const issues = Array.isArray(answered) ? answered : [];
  const list =
    issues.length === 0
      ? html`<p class="empty">No issue counts them.</p>`
      : html`<div class="table-wrap"><table class="list" id="affected-issues"><thead><tr><th scope="col">Issue</th><th scope="col">Status</th><th scope="col">Events</th><th scope="col">People</th><th scope="col">Last seen</th></tr></thead>
<tbody>${issues.map(
          (issue) =>
            html`<tr><td>${appLink(['f', factoryId, 'reports', 'issues', issue.issueId], summary(issue.title) || '(no title)')}</td><td>${text(issue.status)}</td>
<td>${text('person' in issue ? issue.person?.events : issue.count)}</td><td>${peopleText(issue)}</td><td>${time('person' in issue ? issue.person?.lastSeen : issue.lastSeen)}</td></tr>`,
        )}</tbody></table></div>`;
  return html`<section aria-labelledby="affected-issues-${id}"><h2 id="affected-issues-${id}">Issues they hit</h2>${list}</section>`;
}
