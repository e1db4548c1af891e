import { contactId as contactIdOf } from '../../../../lambda/contacts/domain/contact-id';
import { CONTACT_ID_PATTERN, CONTACT_ID_PREFIX } from '../../../../lambda/kernel/contact-id-digest';
import { normalizeEmail } from '../../../../lambda/kernel/email';
import { route, type Route, type RouteContext } from '../context';
import { errorBox } from '../display';
import { html, path, withQuery, type Html } from '../html';
import { renderPage } from '../layout';
import { cursorOf, pageNumberOf, pager } from '../pager';
import { redirect } from '../respond';
import { contactTable } from './contact-table';
import { contactPage } from './contact-page';

/** Contacts per page of the list. */
export const CONTACTS_PAGE = 50;

function filters(factoryId: string, enriched: string, since: string, find: string, findProblem?: string): Html {
  return html`<div class="toolbar">
<form class="filters" method="get" action="${path`/f/${factoryId}/contacts`}" aria-label="Filter contacts">
  <label>Enriched <select name="enriched">
    <option value=""${enriched === '' ? html` selected` : ''}>any</option>
    <option value="yes"${enriched === 'yes' ? html` selected` : ''}>yes</option>
    <option value="no"${enriched === 'no' ? html` selected` : ''}>no</option>
  </select></label>
  <label>Updated since <input type="date" name="since" value="${since}"></label>
  <button type="submit">Filter</button>
</form>
<form class="find" method="get" action="${path`/f/${factoryId}/find`}" role="search" aria-label="Find a contact">
  <label for="find">Email or contact id</label>
  <input id="find" name="q" value="${find}" required placeholder="ada@example.com or ct_…" autocomplete="off">
  <button type="submit">Find</button>
</form>
</div>
${findProblem ? html`<p class="error" role="alert">${findProblem}</p>` : ''}`;
}

async function listContacts(context: RouteContext, factoryId: string): Promise<void> {
  const { url } = context;
  const enriched = url.searchParams.get('enriched') ?? '';
  const since = url.searchParams.get('since') ?? '';
  const reply = await context.ask({
    operation: 'contacts.list',
    factoryId,
    limit: CONTACTS_PAGE,
    ...(enriched === 'yes' || enriched === 'no' ? { enriched: enriched === 'yes' } : {}),
    ...(since === '' ? {} : { updatedSince: since }),
    ...cursorOf(url),
  });
  const pageNumber = pageNumberOf(url);
  // A search that led nowhere comes back here: its problem worked out again, never text taken from the URL.
  const find = url.searchParams.get('q') ?? '';
  const searched = find === '' ? undefined : contactIdFor(factoryId, find);
  const findProblem = searched && 'problem' in searched ? searched.problem : undefined;
  const body = reply.ok
    ? html`${contactTable(factoryId, reply.body.contacts, `Contacts of ${factoryId}, page ${pageNumber}`)}
${pager(path`/f/${factoryId}/contacts`, { enriched, since }, pageNumber, reply.body.cursor)}`
    : errorBox(reply.status, reply.body.error);
  renderPage(context, reply.status, {
    title: 'Contacts',
    factoryId,
    section: 'contacts',
    body: html`<h1>Contacts</h1>${filters(factoryId, enriched, since, find, findProblem)}${body}`,
  });
}

/** Where a search for `q` leads: a contact id as it is, an email to the id the API derives from it. */
export function contactIdFor(factoryId: string, q: string): { id: string } | { problem: string } {
  const query = q.trim();
  if (CONTACT_ID_PATTERN.test(query)) return { id: query };
  if (query.startsWith(CONTACT_ID_PREFIX)) return { problem: `"${query}" is not a contact id: ct_ and 16 hex characters` };
  const email = normalizeEmail(query);
  if (!email.ok) return { problem: `"${query}" is neither a contact id nor an email address: ${email.problem}` };
  return { id: contactIdOf(factoryId, email.email) };
}

export const contactRoutes: Route[] = [
  route('GET', '/f/:factoryId/contacts', (context, { factoryId }) => listContacts(context, factoryId)),
  route('GET', '/f/:factoryId/find', async ({ res, url }, { factoryId }) => {
    const q = url.searchParams.get('q') ?? '';
    const found = contactIdFor(factoryId, q);
    if ('id' in found) redirect(res, path`/f/${factoryId}/contacts/${found.id}`);
    else redirect(res, withQuery(path`/f/${factoryId}/contacts`, { q }));
  }),
  route('GET', '/f/:factoryId/contacts/:contactId', (context, { factoryId, contactId }) => contactPage(context, factoryId, contactId)),
];
