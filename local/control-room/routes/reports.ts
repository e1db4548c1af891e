import { FACTORY, type Route, type RouteContext } from '../context';
import { html, path, type Html } from '../html';
import { errorBox, page, time } from '../layout';
import { redirect, sendHtml } from '../respond';
import { pageNumberOf, pager } from './contact-table';

type Json = Record<string, unknown>;
const text = (value: unknown): string => (typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value));

/**
 * The tabs of the reports page, in order; /reports opens the first: the
 * issues (events grouped by fingerprint, docs/report-issues.md), what the
 * team reads first.
 */
export const REPORT_TABS = [
  { id: 'issues', label: 'Issues' },
  { id: 'events', label: 'Events' },
  { id: 'feature-requests', label: 'Feature requests' },
] as const;
type TabId = (typeof REPORT_TABS)[number]['id'];

const REPORTS_PAGE = 50;
const EVENT_TYPES = ['error', 'bug_report', 'message'];
const ISSUE_STATUSES = ['open', 'resolved', 'ignored'];
const ISSUE_ID = '(iss_[0-9a-f]{20})';
const UUID = '([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})';

function tabs(factoryId: string, current: TabId): Html {
  return html`<nav class="tabs" aria-label="Reports"><ul>${REPORT_TABS.map(
    (tab) => html`<li><a href="${path`/f/${factoryId}/reports/${tab.id}`}"${tab.id === current ? html` aria-current="page"` : ''}>${tab.label}</a></li>`,
  )}</ul></nav>`;
}

/** The first line of a text, cut for a table cell. */
function summary(value: unknown, max = 120): string {
  const line = text(value).split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

function reportsPage(context: RouteContext, factoryId: string, tab: TabId, title: string, body: Html, status: number, scripts: string[] = []): void {
  sendHtml(
    context.res,
    status,
    page({ title, factoryId, section: 'reports', where: context.client.where, csrfToken: context.session.csrfToken, scripts, body: html`<h1>Reports</h1>${tabs(factoryId, tab)}${body}` }),
  );
}

async function eventList(context: RouteContext, factoryId: string): Promise<void> {
  const { url } = context;
  const cursor = url.searchParams.get('cursor') ?? undefined;
  const type = url.searchParams.get('type') ?? '';
  const reply = await context.run({
    operation: 'reports.events',
    factoryId,
    limit: REPORTS_PAGE,
    ...(EVENT_TYPES.includes(type) ? { type } : {}),
    ...(cursor === undefined ? {} : { cursor }),
  });
  const events = (reply.body.events ?? []) as Json[];
  const filter = html`<form class="filters" method="get" action="${path`/f/${factoryId}/reports/events`}" aria-label="Filter events">
<label>Type <select name="type"><option value="">any</option>${EVENT_TYPES.map((name) => html`<option value="${name}"${name === type ? html` selected` : ''}>${name}</option>`)}</select></label>
<button type="submit">Filter</button></form>`;
  const list =
    reply.status !== 200
      ? errorBox(reply.status, reply.body.error)
      : events.length === 0
        ? html`<p class="empty">No events on this page.</p>`
        : html`<div class="table-wrap"><table class="list" id="events"><thead><tr><th scope="col">Received</th><th scope="col">Type</th><th scope="col">Message</th><th scope="col">Page</th></tr></thead>
<tbody>${events.map(
            (event) => html`<tr><td>${time(event.receivedAt)}</td><td>${text(event.type)}</td>
<td><a href="${path`/f/${factoryId}/reports/events/${text(event.eventId)}`}">${summary(event.message ?? (event.exception as Json | undefined)?.value ?? (event.exception as Json | undefined)?.type) || '(no message)'}</a></td>
<td>${summary(event.pageUrl, 60)}</td></tr>`,
          )}</tbody></table></div>${pager(path`/f/${factoryId}/reports/events`, { type }, pageNumberOf(url), reply.body.cursor)}`;
  reportsPage(context, factoryId, 'events', 'Events', html`<p class="muted">Newest first.</p>${filter}${list}`, reply.status);
}

async function featureRequestList(context: RouteContext, factoryId: string): Promise<void> {
  const cursor = context.url.searchParams.get('cursor') ?? undefined;
  const reply = await context.run({ operation: 'reports.feature-requests', factoryId, limit: REPORTS_PAGE, ...(cursor === undefined ? {} : { cursor }) });
  const requests = (reply.body.featureRequests ?? []) as Json[];
  const list =
    reply.status !== 200
      ? errorBox(reply.status, reply.body.error)
      : requests.length === 0
        ? html`<p class="empty">No feature requests on this page.</p>`
        : html`<div class="table-wrap"><table class="list" id="feature-requests"><thead><tr><th scope="col">Received</th><th scope="col">Title</th><th scope="col">Category</th><th scope="col">Description</th></tr></thead>
<tbody>${requests.map(
            (request) => html`<tr><td>${time(request.receivedAt)}</td>
<td><a href="${path`/f/${factoryId}/reports/feature-requests/${text(request.requestId)}`}">${summary(request.title)}</a></td>
<td>${text(request.category)}</td><td>${summary(request.description, 80)}</td></tr>`,
          )}</tbody></table></div>${pager(path`/f/${factoryId}/reports/feature-requests`, {}, pageNumberOf(context.url), reply.body.cursor)}`;
  reportsPage(context, factoryId, 'feature-requests', 'Feature requests', html`<p class="muted">Newest first.</p>${list}`, reply.status);
}

async function issueList(context: RouteContext, factoryId: string): Promise<void> {
  const status = context.url.searchParams.get('status') ?? 'open';
  const reply = await context.run({ operation: 'issues.list', factoryId, limit: REPORTS_PAGE, ...(ISSUE_STATUSES.includes(status) ? { status } : {}) });
  const issues = (reply.body.issues ?? []) as Json[];
  const filtered = (reply.body.filtered ?? {}) as Record<string, unknown>;
  const filteredTotal = Object.values(filtered).reduce<number>((sum, count) => sum + (typeof count === 'number' ? count : 0), 0);
  const filter = html`<form class="filters" method="get" action="${path`/f/${factoryId}/reports/issues`}" aria-label="Filter issues">
<label>Status <select name="status">${[...ISSUE_STATUSES, 'any'].map((name) => html`<option value="${name}"${name === status ? html` selected` : ''}>${name}</option>`)}</select></label>
<button type="submit">Filter</button></form>`;
  const list =
    reply.status !== 200
      ? errorBox(reply.status, reply.body.error)
      : issues.length === 0
        ? html`<p class="empty">No ${ISSUE_STATUSES.includes(status) ? status : ''} issues.</p>`
        : html`<div class="table-wrap"><table class="list" id="issues"><thead><tr><th scope="col">Last seen</th><th scope="col">Issue</th><th scope="col">Events</th><th scope="col">Status</th><th scope="col">First seen</th><th scope="col">Last release</th></tr></thead>
<tbody>${issues.map(
            (issue) => html`<tr><td>${time(issue.lastSeen)}</td>
<td><a href="${path`/f/${factoryId}/reports/issues/${text(issue.issueId)}`}">${summary(issue.title) || '(no title)'}</a></td>
<td>${text(issue.count)}</td><td>${text(issue.status)}${typeof issue.regressions === 'number' && issue.regressions > 0 ? ' (regressed)' : ''}</td>
<td>${time(issue.firstSeen)}</td><td>${text(issue.lastRelease)}</td></tr>`,
          )}</tbody></table></div>`;
  const note = html`<p class="muted">Events grouped by fingerprint, most recently seen first, with exact counts.${filteredTotal > 0 ? ` ${filteredTotal} filtered event${filteredTotal > 1 ? 's' : ''} (browser extensions, cross-origin "Script error.") opened no issue.` : ''}</p>`;
  reportsPage(context, factoryId, 'issues', 'Issues', html`${note}${filter}${list}`, reply.status);
}

async function oneIssue(context: RouteContext, factoryId: string, issueId: string): Promise<void> {
  const reply = await context.run({ operation: 'issues.show', factoryId, issueId });
  const issue = reply.body.issue as Json | undefined;
  const back = html`<p><a href="${path`/f/${factoryId}/reports/issues`}">Back to the issues</a></p>`;
  if (reply.status !== 200 || !issue) {
    reportsPage(context, factoryId, 'issues', issueId, html`${back}${errorBox(reply.status, reply.body.error)}`, reply.status);
    return;
  }
  const events = (reply.body.events ?? []) as Json[];
  const current = text(issue.status);
  const actions = html`<div class="actions" id="issue-actions" data-factory="${factoryId}" data-issue="${issueId}">
${current !== 'resolved' ? html`<button type="button" class="issue-status" data-operation="issues.resolve">Resolve</button> ` : ''}${current !== 'ignored' ? html`<button type="button" class="issue-status" data-operation="issues.ignore">Ignore</button> ` : ''}${current !== 'open' ? html`<button type="button" class="issue-status" data-operation="issues.reopen">Reopen</button>` : ''}
<div class="result" id="issue-result" role="status" aria-live="polite"></div></div>`;
  const latest =
    events.length === 0
      ? html`<p class="empty">No events kept (past their retention).</p>`
      : html`<div class="table-wrap"><table class="list" id="issue-events"><thead><tr><th scope="col">Received</th><th scope="col">Message</th><th scope="col">Release</th><th scope="col">Page</th></tr></thead>
<tbody>${events.map(
          (event) => html`<tr><td>${time(event.receivedAt)}</td>
<td><a href="${path`/f/${factoryId}/reports/events/${text(event.eventId)}`}">${summary(event.message ?? (event.exception as Json | undefined)?.value ?? (event.exception as Json | undefined)?.type) || '(no message)'}</a></td>
<td>${text(event.release)}</td><td>${summary(event.pageUrl, 60)}</td></tr>`,
        )}</tbody></table></div>`;
  const heading = summary(issue.title, 200) || '(no title)';
  reportsPage(
    context,
    factoryId,
    'issues',
    heading,
    html`${back}<h2 class="report-title">${heading}</h2>${actions}
${details(issue, ['issueId', 'status', 'count', 'firstSeen', 'lastSeen', 'firstRelease', 'lastRelease', 'regressions', 'regressedAt', 'statusChangedAt', 'statusChangedBy', 'lastEventId', 'fingerprint'])}
<h3>Latest events</h3>${latest}`,
    200,
    ['issues.js'],
  );
}

/** Every attribute of a report: long text as preformatted blocks, objects as nested lists, times localized. */
function details(report: Json, order: string[]): Html {
  const keys = [...order.filter((key) => key in report), ...Object.keys(report).filter((key) => !order.includes(key)).sort()];
  return html`<dl class="details">${keys.map((key) => html`<dt>${key}</dt><dd>${value(key, report[key])}</dd>`)}</dl>`;
}

function value(key: string, item: unknown): Html {
  if (typeof item === 'string' && /At$|^timestamp$/.test(key)) return time(item);
  if (typeof item === 'string') return item.includes('\n') || item.length > 100 ? html`<pre class="text">${item}</pre>` : html`${item}`;
  if (typeof item === 'object' && item !== null && !Array.isArray(item)) return details(item as Json, ['type', 'value', 'stack']);
  return html`${text(item)}`;
}

async function oneReport(context: RouteContext, factoryId: string, tab: TabId, id: string): Promise<void> {
  const events = tab === 'events';
  const reply = await context.run(events ? { operation: 'reports.event', factoryId, eventId: id } : { operation: 'reports.feature-request', factoryId, requestId: id });
  const report = (events ? reply.body.event : reply.body.featureRequest) as Json | undefined;
  const back = html`<p><a href="${path`/f/${factoryId}/reports/${tab}`}">Back to the list</a></p>`;
  if (reply.status !== 200 || !report) {
    reportsPage(context, factoryId, tab, id, html`${back}${errorBox(reply.status, reply.body.error)}`, reply.status);
    return;
  }
  const exception = (report.exception ?? {}) as Json;
  const heading = events ? summary(report.message ?? exception.value ?? exception.type, 200) || '(no message)' : summary(report.title, 200);
  const main = events
    ? html`<h2 class="report-title">${heading}</h2>
${report.message !== undefined ? html`<h3>Message</h3><pre class="text" id="event-message">${text(report.message)}</pre>` : ''}
${report.exception !== undefined ? html`<h3>Exception</h3><p id="event-exception"><strong>${text(exception.type)}</strong>${exception.value !== undefined ? html`: ${text(exception.value)}` : ''}</p>` : ''}
${exception.stack !== undefined ? html`<h3>Stack</h3><pre class="text stack" id="event-stack">${text(exception.stack)}</pre>` : ''}
<h3>Everything stored</h3>${details(report, ['eventId', 'type', 'receivedAt', 'timestamp', 'message', 'exception', 'pageUrl', 'release', 'tags', 'reporter', 'origin', 'userAgent'])}`
    : html`<h2 class="report-title">${heading}</h2>
${report.description !== undefined ? html`<pre class="text" id="request-description">${text(report.description)}</pre>` : ''}
<h3>Everything stored</h3>${details(report, ['requestId', 'title', 'receivedAt', 'category', 'description', 'pageUrl', 'reporter', 'origin', 'userAgent'])}`;
  reportsPage(context, factoryId, tab, heading, html`${back}${main}`, 200);
}

export const reportRoutes: Route[] = [
  { method: 'GET', pattern: new RegExp(`^/f/${FACTORY}/reports$`), handle: async ({ res }, [factoryId]) => redirect(res, path`/f/${factoryId as string}/reports/${REPORT_TABS[0].id}`) },
  { method: 'GET', pattern: new RegExp(`^/f/${FACTORY}/reports/issues$`), handle: (context, [factoryId]) => issueList(context, factoryId as string) },
  { method: 'GET', pattern: new RegExp(`^/f/${FACTORY}/reports/issues/${ISSUE_ID}$`), handle: (context, [factoryId, id]) => oneIssue(context, factoryId as string, id as string) },
  { method: 'GET', pattern: new RegExp(`^/f/${FACTORY}/reports/events$`), handle: (context, [factoryId]) => eventList(context, factoryId as string) },
  { method: 'GET', pattern: new RegExp(`^/f/${FACTORY}/reports/events/${UUID}$`), handle: (context, [factoryId, id]) => oneReport(context, factoryId as string, 'events', id as string) },
  { method: 'GET', pattern: new RegExp(`^/f/${FACTORY}/reports/feature-requests$`), handle: (context, [factoryId]) => featureRequestList(context, factoryId as string) },
  {
    method: 'GET',
    pattern: new RegExp(`^/f/${FACTORY}/reports/feature-requests/${UUID}$`),
    handle: (context, [factoryId, id]) => oneReport(context, factoryId as string, 'feature-requests', id as string),
  },
];
