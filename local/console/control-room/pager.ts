import { html, withQuery, type Html } from './html';

/** Paging by the operation's cursor: the first page, and the next when there is one. `query` is the page's own filters. */
export function pager(base: string, query: Record<string, string | undefined>, pageNumber: number, cursor: unknown): Html {
  return html`<nav class="pager" aria-label="Pages">
${pageNumber > 1 ? html`<a href="${withQuery(base, query)}">First page</a>` : ''}
<span>Page ${pageNumber}</span>
${typeof cursor === 'string' ? html`<a rel="next" href="${withQuery(base, { ...query, cursor, page: pageNumber + 1 })}">Next page</a>` : html`<span class="muted">Last page</span>`}
</nav>`;
}

/** The page number a URL carries (informational: the cursor says where the page starts). */
export function pageNumberOf(url: URL): number {
  const number = Number(url.searchParams.get('page') ?? '1');
  return Number.isInteger(number) && number >= 1 && number <= 1_000_000_000 ? number : 1;
}

/** The cursor a URL carries, as the operation takes it: absent on the first page. */
export function cursorOf(url: URL): { cursor?: string } {
  const cursor = url.searchParams.get('cursor');
  return cursor === null ? {} : { cursor };
}
