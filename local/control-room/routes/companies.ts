import { companyId } from '../../../lambda/domain/company-id';
import { normalizeDomain } from '../../../lambda/domain/normalize-domain';
import { FACTORY, type Route, type RouteContext } from '../context';
import { html, path } from '../html';
import { errorBox, page, time } from '../layout';
import { redirect, sendHtml } from '../respond';
import { contactTable, pageNumberOf, pager, type ContactRow } from './contact-table';
import { CONTACTS_PAGE } from './contacts';

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

async function listCompanies(context: RouteContext, factoryId: string): Promise<void> {
  const { url, res, client, session } = context;
  const cursor = url.searchParams.get('cursor') ?? undefined;
  const domain = url.searchParams.get('domain') ?? '';
  const domainProblem = domain !== '' && normalizeDomain(domain) === undefined ? `"${domain}" is not a domain name like acme.example` : undefined;
  const reply = await context.run({ operation: 'companies.list', factoryId, limit: CONTACTS_PAGE, ...(cursor === undefined ? {} : { cursor }) });
  const companies = (reply.body.companies ?? []) as Record<string, unknown>[];
  const pageNumber = pageNumberOf(url);
  const list =
    reply.status !== 200
      ? errorBox(reply.status, reply.body.error)
      : companies.length === 0
        ? html`<p class="empty">No companies on this page.</p>`
        : html`<div class="table-wrap"><table class="list"><thead><tr><th scope="col">Domain</th><th scope="col">Name</th><th scope="col">Since</th></tr></thead>
<tbody>${companies.map(
            (company) => html`<tr><td><a href="${path`/f/${factoryId}/companies/${text(company.id)}`}">${text(company.domain)}</a></td><td>${text(company.name)}</td><td>${time(company.createdAt)}</td></tr>`,
          )}</tbody></table></div>${pager(path`/f/${factoryId}/companies`, {}, pageNumber, reply.body.cursor)}`;
  sendHtml(
    res,
    reply.status,
    page({
      title: 'Companies',
      factoryId,
      section: 'companies',
      where: client.where,
      csrfToken: session.csrfToken,
      body: html`<h1>Companies</h1>
<form class="find" method="get" action="${path`/f/${factoryId}/company`}" role="search" aria-label="Find a company by domain">
  <label for="domain">Domain</label>
  <input id="domain" name="domain" value="${domain}" required placeholder="acme.example" autocomplete="off">
  <button type="submit">Show its contacts</button>
</form>
${domainProblem ? html`<p class="error" role="alert">${domainProblem}</p>` : ''}
<p class="muted">In domain order.</p>
${list}`,
    }),
  );
}

async function companyContacts(context: RouteContext, factoryId: string, id: string): Promise<void> {
  const { url, res, client, session } = context;
  const cursor = url.searchParams.get('cursor') ?? undefined;
  const reply = await context.run({ operation: 'companies.contacts', factoryId, companyId: id, limit: CONTACTS_PAGE, ...(cursor === undefined ? {} : { cursor }) });
  const pageNumber = pageNumberOf(url);
  const body =
    reply.status === 200
      ? html`${contactTable(factoryId, (reply.body.contacts ?? []) as ContactRow[], `Contacts of company ${id}`)}${pager(path`/f/${factoryId}/companies/${id}`, {}, pageNumber, reply.body.cursor)}`
      : errorBox(reply.status, reply.body.error);
  sendHtml(
    res,
    reply.status,
    page({
      title: `Company ${id}`,
      factoryId,
      section: 'companies',
      where: client.where,
      csrfToken: session.csrfToken,
      body: html`<h1>Contacts of company ${id}</h1><p><a href="${path`/f/${factoryId}/companies`}">All companies</a></p>${body}`,
    }),
  );
}

export const companyRoutes: Route[] = [
  { method: 'GET', pattern: new RegExp(`^/f/${FACTORY}/companies$`), handle: (context, [factoryId]) => listCompanies(context, factoryId as string) },
  {
    // A domain leads to its company the way the API links contacts: the id derives from factory and domain.
    method: 'GET',
    pattern: new RegExp(`^/f/${FACTORY}/company$`),
    handle: async ({ res, url }, [factoryId]) => {
      const domain = url.searchParams.get('domain') ?? '';
      const normalized = normalizeDomain(domain);
      const fac = factoryId as string;
      redirect(res, normalized ? path`/f/${fac}/companies/${companyId(fac, normalized)}` : `${path`/f/${fac}/companies`}?domain=${encodeURIComponent(domain)}`);
    },
  },
  { method: 'GET', pattern: new RegExp(`^/f/${FACTORY}/companies/(co_[0-9a-f]{16})$`), handle: (context, [factoryId, id]) => companyContacts(context, factoryId as string, id as string) },
];
