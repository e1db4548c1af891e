import { html, path, type Html } from '../html';
import { time } from '../layout';

/** A contact as the operations answer it (controlView): the fields the tables show. */
export type ContactRow = Record<string, unknown>;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A table of contacts, each linking to its page. */
export function contactTable(factoryId: string, contacts: ContactRow[], caption: string): Html {
  if (contacts.length === 0) return html`<p class="empty">No contacts on this page.</p>`;
  return html`<div class="table-wrap"><table class="list">
<caption class="visually-hidden">${caption}</caption>
<thead><tr><th scope="col">Email</th><th scope="col">Name</th><th scope="col">Title</th><th scope="col">Company</th><th scope="col">Enriched</th><th scope="col">Updated</th></tr></thead>
<tbody>${contacts.map(
    (contact) => html`<tr>
<td><a href="${path`/f/${factoryId}/contacts/${text(contact.id)}`}">${text(contact.email)}</a></td>
<td>${text(contact.name)}</td>
<td>${text(contact.title)}</td>
<td>${contact.companyId ? html`<a href="${path`/f/${factoryId}/companies/${text(contact.companyId)}`}">${text(contact.companyId)}</a>` : ''}</td>
<td>${contact.enriched === true ? 'yes' : 'no'}</td>
<td>${time(contact.updatedAt)}</td>
</tr>`,
  )}</tbody></table></div>`;
}

/** Paging by the operation's cursor: the first page, and the next when there is one. */
export function pager(base: string, query: Record<string, string | undefined>, pageNumber: number, cursor: unknown): Html {
  const params = (extra: Record<string, string>) => {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries({ ...query, ...extra })) if (value) search.set(name, value);
    const text = search.toString();
    return text === '' ? base : `${base}?${text}`;
  };
  return html`<nav class="pager" aria-label="Pages">
${pageNumber > 1 ? html`<a href="${params({})}">First page</a>` : ''}
<span>Page ${pageNumber}</span>
${typeof cursor === 'string' ? html`<a rel="next" href="${params({ cursor, page: String(pageNumber + 1) })}">Next page</a>` : html`<span class="muted">Last page</span>`}
</nav>`;
}

/** The page number a URL carries (informational: the cursor says where the page starts). */
export function pageNumberOf(url: URL): number {
  const number = Number(url.searchParams.get('page') ?? '1');
  return Number.isInteger(number) && number >= 1 && number <= 1_000_000_000 ? number : 1;
}
