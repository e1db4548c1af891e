import { REPORTS_DEFAULT, type StoredReport } from '../../../../lambda/control/report-operations';
import { EVENT_TYPES } from '../../../../lambda/ingest/issues/stored-event';
import type { OperationName } from '../../../../lambda/control/answers';
import type { TypedReply } from '../../control/typed-reply';
import type { RouteContext } from '../context';
import { appLink, errorBox, summary, text, time } from '../display';
import { html, path, type Html } from '../html';
import { cursorOf, pageNumberOf, pager } from '../pager';
import { framesSection } from './event-frames';
import { details, eventHeadline, renderReportsPage, type TabId } from './report-layout';

type Json = StoredReport;

const TYPES: readonly string[] = EVENT_TYPES;

/** A list's table, or what stands in for it: the operation's error, or the empty list's line. */
function listOr(reply: TypedReply<OperationName>, items: Json[], empty: string, table: () => Html): Html {
  if (!reply.ok) return errorBox(reply.status, reply.body.error);
  return items.length === 0 ? html`<p class="empty">${empty}</p>` : table();
}

/** The events, newest first, 50 a page, filterable by type. */
export async function eventList(context: RouteContext, factoryId: string): Promise<void> {
  const { url } = context;
  const type = url.searchParams.get('type') ?? '';
  const reply = await context.ask({
    operation: 'reports.events',
    factoryId,
    limit: REPORTS_DEFAULT,
    ...(TYPES.includes(type) ? { type } : {}),
    ...cursorOf(url),
  });
  const events = reply.ok ? reply.body.events : [];
  const filter = html`<form class="filters" method="get" action="${path`/f/${factoryId}/reports/events`}" aria-label="Filter events">
<label>Type <select name="type"><option value="">any</option>${TYPES.map((name) => html`<option value="${name}"${name === type ? html` selected` : ''}>${name}</option>`)}</select></label>
<button type="submit">Filter</button></form>`;
  const list = listOr(
    reply,
    events,
    'No events on this page.',
    () => html`<div class="table-wrap"><table class="list" id="events"><thead><tr><th scope="col">Received</th><th scope="col">Type</th><th scope="col">Message</th><th scope="col">Page</th></tr></thead>
<tbody>${events.map(
      (event) => html`<tr><td>${time(event.receivedAt)}</td><td>${text(event.type)}</td>
<td>${appLink(['f', factoryId, 'reports', 'events', event.eventId], eventHeadline(event))}</td>
<td>${summary(event.pageUrl, 60)}</td></tr>`,
    )}</tbody></table></div>${pager(path`/f/${factoryId}/reports/events`, { type }, pageNumberOf(url), reply.ok ? reply.body.cursor : undefined)}`,
  );
  renderReportsPage(context, factoryId, 'events', { title: 'Events', body: html`<p class="muted">Newest first.</p>${filter}${list}` }, reply.status);
}

/** The feature requests, newest first, 50 a page. */
export async function featureRequestList(context: RouteContext, factoryId: string): Promise<void> {
  const { url } = context;
  const reply = await context.ask({ operation: 'reports.feature-requests', factoryId, limit: REPORTS_DEFAULT, ...cursorOf(url) });
  const requests = reply.ok ? reply.body.featureRequests : [];
  const list = listOr(
    reply,
    requests,
    'No feature requests on this page.',
    () => html`<div class="table-wrap"><table class="list" id="feature-requests"><thead><tr><th scope="col">Received</th><th scope="col">Title</th><th scope="col">Category</th><th scope="col">Description</th></tr></thead>
<tbody>${requests.map(
      (request) => html`<tr><td>${time(request.receivedAt)}</td>
<td>${appLink(['f', factoryId, 'reports', 'feature-requests', request.requestId], summary(request.title))}</td>
<td>${text(request.category)}</td><td>${summary(request.description, 80)}</td></tr>`,
    )}</tbody></table></div>${pager(path`/f/${factoryId}/reports/feature-requests`, {}, pageNumberOf(url), reply.ok ? reply.body.cursor : undefined)}`,
  );
  renderReportsPage(context, factoryId, 'feature-requests', { title: 'Feature requests', body: html`<p class="muted">Newest first.</p>${list}` }, reply.status);
}

const EVENT_ORDER = ['eventId', 'type', 'receivedAt', 'timestamp', 'message', 'exception', 'pageUrl', 'release', 'tags', 'reporter', 'origin', 'userAgent'];
const REQUEST_ORDER = ['requestId', 'title', 'receivedAt', 'category', 'description', 'pageUrl', 'reporter', 'origin', 'userAgent'];

/** What the event page lists under "Everything stored": the frames have their own section. */
const eventStored = ({ frames: _frames, ...stored }: Json): Json => stored;

/** An event: its message, exception, frames and stack, then every stored attribute. */
function eventBody(event: Json, heading: string): Html {
  const exception = (event.exception ?? {}) as Json;
  // The issue that counts it (issueId as reports.event answers it: lambda/control/issue-ids.ts).
  const issue =
    typeof event.issueId === 'string'
      ? html`<p id="event-issue">Issue: ${appLink(['f', String(event.factoryId), 'reports', 'issues', event.issueId], html`<code>${text(event.issueId)}</code>`)}</p>`
      : '';
  return html`<h2 class="report-title">${heading}</h2>${issue}
${event.message !== undefined ? html`<h3>Message</h3><pre class="text" id="event-message">${text(event.message)}</pre>` : ''}
${event.exception !== undefined ? html`<h3>Exception</h3><p id="event-exception"><strong>${text(exception.type)}</strong>${exception.value !== undefined ? html`: ${text(exception.value)}` : ''}</p>` : ''}
${framesSection(event.frames)}
${exception.stack !== undefined ? html`<h3>Stack</h3><pre class="text stack" id="event-stack">${text(exception.stack)}</pre>` : ''}
<h3>Everything stored</h3>${details(eventStored(event), EVENT_ORDER)}`;
}

/** A feature request: its description, then every stored attribute. */
function featureRequestBody(request: Json, heading: string): Html {
  return html`<h2 class="report-title">${heading}</h2>
${request.description !== undefined ? html`<pre class="text" id="request-description">${text(request.description)}</pre>` : ''}
<h3>Everything stored</h3>${details(request, REQUEST_ORDER)}`;
}

/** One event or feature request, on a page of its own. */
export async function reportPage(context: RouteContext, factoryId: string, tab: Exclude<TabId, 'issues'>, id: string): Promise<void> {
  const events = tab === 'events';
  const reply = events
    ? await context.ask({ operation: 'reports.event', factoryId, eventId: id })
    : await context.ask({ operation: 'reports.feature-request', factoryId, requestId: id });
  const list = html`<a href="${path`/f/${factoryId}/reports/${tab}`}">Back to the list</a>`;
  const back = html`<p>${list}</p>`;
  if (!reply.ok) {
    renderReportsPage(context, factoryId, tab, { title: id, body: html`${back}${errorBox(reply.status, reply.body.error)}` }, reply.status);
    return;
  }
  const report = 'event' in reply.body ? reply.body.event : reply.body.featureRequest;
  const heading = events ? eventHeadline(report, 200) : summary(report.title, 200);
  // An event counted into an issue links back to it (an issue's page lists its events).
  const issue = events && typeof report.issueId === 'string' ? report.issueId : undefined;
  const links = issue
    ? html`<p class="report-links"><a href="${path`/f/${factoryId}/reports/issues/${issue}`}" id="event-issue">Its issue</a> · ${list}</p>`
    : back;
  renderReportsPage(
    context,
    factoryId,
    tab,
    { title: heading, body: html`${links}${events ? eventBody(report, heading) : featureRequestBody(report, heading)}` },
    200,
  );
}
