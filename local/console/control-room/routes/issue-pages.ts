import { issueFeedbackSection } from './feedback-section';
import { ISSUE_STATUSES } from '../../../../lambda/ingest/issues/issue';
import type { IssueListItem } from '../../../../lambda/control/issue-operations';
import { REPORTS_DEFAULT } from '../../../../lambda/control/report-operations';
import type { RouteContext } from '../context';
import { appLink, errorBox, summary, text, time } from '../display';
import { html, path } from '../html';
import { cursorOf, pageNumberOf, pager } from '../pager';
import { trendSection } from '../trend-chart';
import { affectedSection, companiesText, peopleText } from './affected-section';
import { framesSection } from './event-frames';
import { details, eventHeadline, renderReportsPage } from './report-layout';
import { setAsideNote } from './set-aside-note';

const STATUSES: readonly string[] = ISSUE_STATUSES;

const SORTS = [
  { id: 'lastSeen', label: 'last seen' },
  { id: 'events', label: 'most events' },
  { id: 'visitors', label: 'most visitors' },
  { id: 'people', label: 'most people' },
] as const;

/** Visitors as a page shows them: the count, "about" when it is an estimate (docs/report-issues.md#visitors-affected). */
const visitorsText = (issue: Pick<IssueListItem, 'visitors' | 'visitorsExact'>): string =>
  typeof issue.visitors !== 'number' ? '' : issue.visitorsExact === false ? `about ${issue.visitors}` : String(issue.visitors);

/** The issues of one status (open unless the filter says otherwise) or of all, in the order chosen, a title search, paged by the operation's cursor. */
export async function issueList(context: RouteContext, factoryId: string): Promise<void> {
  const { url } = context;
  const status = url.searchParams.get('status') ?? 'open';
  const sort = SORTS.find((entry) => entry.id === url.searchParams.get('sort'))?.id ?? 'lastSeen';
  const search = (url.searchParams.get('q') ?? '').trim();
  const query = { status, sort: sort === 'lastSeen' ? undefined : sort, q: search || undefined };
  const reply = await context.ask({
    operation: 'issues.list',
    factoryId,
    limit: REPORTS_DEFAULT,
    sort,
    ...(STATUSES.includes(status) ? { status } : {}),
    ...(search === '' ? {} : { search }),
    ...cursorOf(url),
  });
  const issues = reply.ok ? reply.body.issues : [];
  const filtered = reply.ok ? reply.body.filtered : {};
  const filteredTotal = Object.values(filtered).reduce<number>((sum, count) => sum + (typeof count === 'number' ? count : 0), 0);
  const base = path`/f/${factoryId}/reports/issues`;
  const filter = html`<form class="filters" method="get" action="${base}" aria-label="Filter issues">
<label>Status <select name="status">${[...STATUSES, 'any'].map((name) => html`<option value="${name}"${name === status ? html` selected` : ''}>${name}</option>`)}</select></label>
<label>Sort by <select name="sort">${SORTS.map((entry) => html`<option value="${entry.id}"${entry.id === sort ? html` selected` : ''}>${entry.label}</option>`)}</select></label>
<label>Title contains <input type="search" name="q" value="${search}" maxlength="200"></label>
<button type="submit">Show</button></form>`;
  const partial =
    reply.ok && reply.body.complete === false
      ? html`<p class="muted">Sorted and searched among the ${text(reply.body.scanned)} most recently seen issues only.</p>`
      : '';
  const list = !reply.ok
    ? errorBox(reply.status, reply.body.error)
    : issues.length === 0
      ? html`<p class="empty">No ${STATUSES.includes(status) ? status : ''} issues${search === '' ? '' : ' with that in their title'}.</p>`
      : html`${partial}<div class="table-wrap"><table class="list" id="issues"><thead><tr><th scope="col">Last seen</th><th scope="col">Issue</th><th scope="col">Events</th><th scope="col">Visitors</th><th scope="col">People</th><th scope="col">Status</th><th scope="col">First seen</th><th scope="col">Last release</th></tr></thead>
<tbody>${issues.map(
          (issue) => html`<tr><td>${time(issue.lastSeen)}</td>
<td>${appLink(['f', factoryId, 'reports', 'issues', issue.issueId], summary(issue.title) || '(no title)')}</td>
<td>${text(issue.count)}</td><td>${visitorsText(issue)}</td><td>${peopleText(issue)}</td><td>${text(issue.status)}${typeof issue.regressions === 'number' && issue.regressions > 0 ? ' (regressed)' : ''}</td>
<td>${time(issue.firstSeen)}</td><td>${text(issue.lastRelease)}</td></tr>`,
        )}</tbody></table></div>${pager(base, query, pageNumberOf(url), reply.body.cursor)}`;
  const note = html`<p class="muted">Events grouped by fingerprint, with exact counts.${filteredTotal > 0 ? ` ${filteredTotal} filtered event${filteredTotal > 1 ? 's' : ''} (browser extensions, cross-origin "Script error.") opened no issue.` : ''}</p>`;
  const aside = reply.ok ? setAsideNote(factoryId, reply.body.setAside) : '';
  renderReportsPage(context, factoryId, 'issues', { title: 'Issues', body: html`${note}${aside}${filter}${list}` }, reply.status);
}

/** Resolve, Ignore, Reopen: the buttons for the statuses the issue is not in (assets/issues.js runs them). */
// Disabled until issues.js has wired them: a click before the script runs would otherwise do nothing at all.
function statusButtons(factoryId: string, issueId: string, current: string) {
  const button = (status: string, operation: string, label: string) =>
    current !== status ? html`<button type="button" class="issue-status" data-operation="${operation}" disabled>${label}</button> ` : '';
  return html`<div class="actions" id="issue-actions" data-factory="${factoryId}" data-issue="${issueId}">
${button('resolved', 'issues.resolve', 'Resolve')}${button('ignored', 'issues.ignore', 'Ignore')}${button('open', 'issues.reopen', 'Reopen')}
<div class="result" id="issue-result" role="status" aria-live="polite"></div></div>`;
}

/** One issue: everything it holds, its latest events, and its status buttons. */
export async function issuePage(context: RouteContext, factoryId: string, issueId: string): Promise<void> {
  const feedback = issueFeedbackSection(context, factoryId, issueId); // asked beside the issue; it never rejects
  const reply = await context.ask({ operation: 'issues.show', factoryId, issueId });
  const back = html`<p><a href="${path`/f/${factoryId}/reports/issues`}">Back to the issues</a></p>`;
  if (!reply.ok) {
    renderReportsPage(context, factoryId, 'issues', { title: issueId, body: html`${back}${errorBox(reply.status, reply.body.error)}` }, reply.status);
    return;
  }
  const { issue, events, affected } = reply.body;
  // The latest event's stack, as every issue page of the field shows it: its frames (resolved where maps allow), then its raw text.
  const newest = events[0];
  const stack = typeof newest?.exception?.stack === 'string' ? newest.exception.stack : undefined;
  const latestStack = !newest
    ? ''
    : html`<section aria-labelledby="latest-stack"><h3 id="latest-stack">The latest event's stack</h3>
<p class="muted">${appLink(['f', factoryId, 'reports', 'events', newest.eventId], eventHeadline(newest))}, ${time(newest.receivedAt)}</p>
${framesSection(newest.frames)}${stack === undefined ? html`<p class="empty">It carries no stack.</p>` : html`<details${Array.isArray(newest.frames) && newest.frames.length > 0 ? '' : html` open`}><summary>Stack as sent</summary><pre class="text stack" id="issue-stack">${stack}</pre></details>`}</section>`;
  const latest =
    events.length === 0
      ? html`<p class="empty">No events kept (past their retention).</p>`
      : html`<div class="table-wrap"><table class="list" id="issue-events"><thead><tr><th scope="col">Received</th><th scope="col">Message</th><th scope="col">Release</th><th scope="col">Page</th></tr></thead>
<tbody>${events.map(
          (event) => html`<tr><td>${time(event.receivedAt)}</td>
<td>${appLink(['f', factoryId, 'reports', 'events', event.eventId], eventHeadline(event))}</td>
<td>${text(event.release)}</td><td>${summary(event.pageUrl, 60)}</td></tr>`,
        )}</tbody></table></div>`;
  const heading = summary(issue.title, 200) || '(no title)';
  const order = [
    'issueId',
    'status',
    'count',
    'visitors',
    'visitorsExact',
    'firstSeen',
    'lastSeen',
    'firstRelease',
    'lastRelease',
    'regressions',
    'regressedAt',
    'statusChangedAt',
    'statusChangedBy',
    'lastEventId',
    'fingerprint',
  ];
  const facts = html`<ul class="facts" aria-label="At a glance">
<li><strong>${text(issue.count)}</strong> events</li><li><strong>${peopleText(issue)}</strong> people</li><li><strong>${companiesText(issue)}</strong> companies</li><li><strong>${visitorsText(issue) || '0'}</strong> visitors affected</li>
<li><strong>${text(issue.firstRelease) || '—'}</strong> first release</li><li><strong>${text(issue.lastRelease) || '—'}</strong> last release</li></ul>`;
  renderReportsPage(
    context,
    factoryId,
    'issues',
    {
      title: heading,
      scripts: ['issues.js'],
      body: html`${back}<h2 class="report-title">${heading}</h2>${statusButtons(factoryId, issueId, text(issue.status))}
${facts}${trendSection(reply.body.trend)}
${affectedSection(factoryId, issue, affected)}
${latestStack}
${await feedback}
<h3>Everything it holds</h3>${details(issue, order)}
<h3>Latest events</h3>${latest}`,
    },
    200,
  );
}
