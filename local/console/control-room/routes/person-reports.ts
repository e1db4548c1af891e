import { appLink, summary, text, time } from '../display';
import { html, path, type Html } from '../html';
import { pager } from '../pager';

type Json = Record<string, unknown>;

/** What a report's row says: an event's type and message, a feature request's title. */
function what(report: Json): Html {
  if (report.kind === 'feedback') return html`<span class="badge">feedback</span> ${summary(report.message)}`;
  if (report.kind === 'feature-request') return html`<span class="badge">feature request</span> ${summary(report.title)}`;
  return html`<span class="badge">${text(report.type)}</span> ${summary(report.message)}`;
}

function link(factoryId: string, report: Json): Html {
  // Feedback has no page of its own: its time links to its issue when it has one.
  if (report.kind === 'feedback') return appLink(['f', factoryId, 'reports', 'issues', report.issueId], time(report.receivedAt));
  const id =
    report.kind === 'feature-request'
      ? ['f', factoryId, 'reports', 'feature-requests', report.requestId]
      : ['f', factoryId, 'reports', 'events', report.eventId];
  return appLink(id, time(report.receivedAt));
}

/**
 * The bug reports, feature requests and feedback a contact's email sent, newest first
 * (contacts.show's `reports`, a page at a time: the page's `reports` query
 * is the answer's reportsCursor). Everything shown is text the page escapes.
 */
export function personReportsSection(factoryId: string, contactId: string, reports: unknown, cursor: unknown, pageNumber: number): Html {
  const rows = Array.isArray(reports) ? (reports as Json[]) : undefined;
  if (!rows) return html``;
  return html`<section aria-labelledby="reports-title"><h2 id="reports-title">Reports from this person</h2>
${
  rows.length === 0
    ? html`<p class="muted">No bug report, feature request or feedback names this email${pageNumber > 1 ? ' on this page' : ''}.</p>`
    : html`<table class="list" id="person-reports"><thead><tr><th scope="col">Received</th><th scope="col">What</th><th scope="col">Page</th></tr></thead>
<tbody>${rows.map((report) => html`<tr data-kind="${text(report.kind)}"><td>${link(factoryId, report)}</td><td>${what(report)}</td><td>${summary(report.pageUrl ?? report.url, 60)}</td></tr>`)}</tbody></table>`
}
${pager(path`/f/${factoryId}/contacts/${contactId}`, {}, pageNumber, cursor)}
</section>`;
}
