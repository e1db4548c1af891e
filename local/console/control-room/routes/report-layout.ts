import type { RouteContext } from '../context';
import { summary, text, time } from '../display';
import { html, path, type Html } from '../html';
import { renderPage } from '../layout';

type Json = Record<string, unknown>;

/**
 * The tabs of the reports section, in order; /reports opens the first: the
 * issues (events grouped by fingerprint, docs/report-issues.md), what the
 * team reads first.
 */
export const REPORT_TABS = [
  { id: 'issues', label: 'Issues' },
  { id: 'events', label: 'Events' },
  { id: 'feature-requests', label: 'Feature requests' },
  { id: 'releases', label: 'Releases' },
] as const;
export type TabId = (typeof REPORT_TABS)[number]['id'];

function tabs(factoryId: string, current: TabId): Html {
  return html`<nav class="tabs" aria-label="Reports"><ul>${REPORT_TABS.map(
    (tab) => html`<li><a href="${path`/f/${factoryId}/reports/${tab.id}`}"${tab.id === current ? html` aria-current="page"` : ''}>${tab.label}</a></li>`,
  )}</ul></nav>`;
}

/** A page of the reports section: its heading and tabs, then `body`. */
export function renderReportsPage(
  context: RouteContext,
  factoryId: string,
  tab: TabId,
  content: { title: string; body: Html; scripts?: string[] },
  status: number,
): void {
  renderPage(context, status, { ...content, factoryId, section: 'reports', body: html`<h1>Reports</h1>${tabs(factoryId, tab)}${content.body}` });
}

/** What an event says first: its message, else its exception's value or type. */
export function eventHeadline(event: Json, max?: number): string {
  const exception = (event.exception ?? {}) as Json;
  return summary(event.message ?? exception.value ?? exception.type, max) || '(no message)';
}

/** Every attribute of a report: long text as preformatted blocks, objects as nested lists, times localized. `order` first, the rest by name. */
export function details(report: Json, order: readonly string[]): Html {
  const keys = [
    ...order.filter((key) => key in report),
    ...Object.keys(report)
      .filter((key) => !order.includes(key))
      .sort(),
  ];
  return html`<dl class="details">${keys.map((key) => html`<dt>${key}</dt><dd>${detail(key, report[key])}</dd>`)}</dl>`;
}

function detail(key: string, item: unknown): Html {
  if (typeof item === 'string' && /At$|^timestamp$/.test(key)) return time(item);
  if (typeof item === 'string') return item.includes('\n') || item.length > 100 ? html`<pre class="text">${item}</pre>` : html`${item}`;
  if (typeof item === 'object' && item !== null && !Array.isArray(item)) return details(item as Json, ['type', 'value', 'stack']);
  return html`${text(item)}`;
}
