import { companyId } from '../../../../lambda/contacts/domain/company-id';
import { normalizeDomain } from '../../../../lambda/contacts/domain/normalize-domain';
import { route, type Route, type RouteContext } from '../context';
import { appLink, errorBox, text, time } from '../display';
import { html, path, withQuery } from '../html';
import { renderPage } from '../layout';
import { cursorOf, pageNumberOf, pager } from '../pager';
import { redirect } from '../respond';
import { affectedIssuesSection } from './affected-section';
import { contactTable } from './contact-table';
import { CONTACTS_PAGE } from './contacts';

async function listCompanies(context: RouteContext, factoryId: string): Promise<void> {
  const { url } = context;
  const domain = url.searchParams.get('domain') ?? '';
  const domainProblem = domain !== '' && normalizeDomain(domain) === undefined ? `"${domain}" is not a domain name like acme.example` : undefined;
  const reply = await context.ask({ operation: 'companies.list', factoryId, limit: CONTACTS_PAGE, ...cursorOf(url) });
  const list = !reply.ok
    ? errorBox(reply.status, reply.body.error)
    : reply.body.companies.length === 0
      ? html`<p class="empty">No companies on this page.</p>`
      : html`<div class="table-wrap"><table class="list"><thead><tr><th scope="col">Domain</th><th scope="col">Name</th><th scope="col">Since</th></tr></thead>
<tbody>${reply.body.companies.map(
          (company) =>
            html`<tr><td>${appLink(['f', factoryId, 'companies', company.id], text(company.domain))}</td><td>${text(company.name)}</td><td>${time(company.createdAt)}</td></tr>`,
        )}</tbody></table></div>${pager(path`/f/${factoryId}/companies`, {}, pageNumberOf(url), reply.body.cursor)}`;
  renderPage(context, reply.status, {
    title: 'Companies',
    factoryId,
    section: 'companies',
    body: html`<h1>Companies</h1>
<form class="find" method="get" action="${path`/f/${factoryId}/company`}" role="search" aria-label="Find a company by domain">
  <label for="domain">Domain</label>
  <input id="domain" name="domain" value="${domain}" required placeholder="acme.example" autocomplete="off">
  <button type="submit">Show its contacts</button>
</form>
${domainProblem ? html`<p class="error" role="alert">${domainProblem}</p>` : ''}
<p class="muted">In domain order.</p>
${list}`,
  });
}

async function companyContacts(context: RouteContext, factoryId: string, id: string): Promise<void> {
  const { url } = context;
  const [reply, issues] = await Promise.all([
    context.ask({ operation: 'companies.contacts', factoryId, companyId: id, limit: CONTACTS_PAGE, ...cursorOf(url) }),
    context.ask({ operation: 'companies.issues', factoryId, companyId: id }),
  ]);
  // The open issues its people hit first (docs/control-room-app.md#who-is-affected), then its contacts.
  const hit = issues.ok ? affectedIssuesSection(factoryId, id, issues.body.issues) : errorBox(issues.status, issues.body.error);
  const body = reply.ok
    ? html`${contactTable(factoryId, reply.body.contacts, `Contacts of company ${id}`)}${pager(path`/f/${factoryId}/companies/${id}`, {}, pageNumberOf(url), reply.body.cursor)}`
    : errorBox(reply.status, reply.body.error);
  renderPage(context, reply.status, {
    title: `Company ${id}`,
    factoryId,
    section: 'companies',
    body: html`<h1>Company ${id}</h1><p><a href="${path`/f/${factoryId}/companies`}">All companies</a></p>${hit}<h2>Its contacts</h2>${body}`,
  });
}

export const companyRoutes: Route[] = [
  route('GET', '/f/:factoryId/companies', (context, { factoryId }) => listCompanies(context, factoryId)),
  // A domain leads to its company the way the API links contacts: the id derives from factory and domain.
  route('GET', '/f/:factoryId/company', async ({ res, url }, { factoryId }) => {
    const domain = url.searchParams.get('domain') ?? '';
    const normalized = normalizeDomain(domain);
    redirect(res, normalized ? path`/f/${factoryId}/companies/${companyId(factoryId, normalized)}` : withQuery(path`/f/${factoryId}/companies`, { domain }));
  }),
  route('GET', '/f/:factoryId/companies/:companyId', (context, { factoryId, companyId: id }) => companyContacts(context, factoryId, id)),
];
