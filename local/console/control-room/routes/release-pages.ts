import type { ReleaseShowAnswer, ReleaseSummary } from '../../../../lambda/control/release-operations';
import { RELEASES_DEFAULT } from '../../../../lambda/control/release-operations';
import { barChart } from '../chart';
import type { RouteContext } from '../context';
import { errorBox, text, time } from '../display';
import { html, path, withQuery, type Html } from '../html';
import { cursorOf, pageNumberOf, pager } from '../pager';
import { renderReportsPage } from './report-layout';

/** A rate (0 to 1) as a page shows it: a percentage to two decimals, a dash when there is none yet. */
const percent = (rate: number | null | undefined): string => (typeof rate === 'number' ? `${(rate * 100).toFixed(2)} %` : '—');

const DAY_HOURS = 24;
const TREND_DAYS = 7;

/** A release's first days: per day since it was first seen, its sessions started and crashed, from its hourly buckets. */
export function firstDays(release: Pick<ReleaseShowAnswer, 'firstSeen' | 'hours'>): { day: string; started: number; crashed: number }[] {
  const firstHour = Math.floor(Date.parse(release.firstSeen) / 3600_000);
  const days = Array.from({ length: TREND_DAYS }, (_, i) => ({
    day: new Date((firstHour + i * DAY_HOURS) * 3600_000).toISOString().slice(0, 10),
    started: 0,
    crashed: 0,
  }));
  for (const bucket of release.hours) {
    const index = Math.floor((Math.floor(Date.parse(bucket.hour) / 3600_000) - firstHour) / DAY_HOURS);
    const day = days[index];
    if (!day) continue;
    day.started += bucket.started;
    day.crashed += bucket.crashed;
  }
  return days;
}

/** A release's sessions per day over its first 7 days, drawn as the issues' trends are (the crash-free rate in each bar's words). */
function firstWeekChart(release: ReleaseShowAnswer): Html {
  const days = firstDays(release);
  const rate = (day: { started: number; crashed: number }) => (day.started > 0 ? percent(1 - Math.min(day.crashed, day.started) / day.started) : '—');
  return barChart({
    name: `Sessions per day of ${release.release}, its first ${TREND_DAYS} days`,
    caption: `${release.release} (${release.environment}): sessions per day over its first ${TREND_DAYS} days from ${days[0]?.day ?? ''}; crash-free over its life ${percent(release.crashFreeSessions)}.`,
    className: 'trend',
    bars: days.map((day, index) => ({
      value: day.started,
      tick: `day ${index + 1}`,
      words: `day ${index + 1} (${day.day}) ${day.started} sessions, ${day.crashed} crashed, crash-free ${rate(day)}`,
      title: `${day.day}: ${day.started} sessions, ${day.crashed} crashed (crash-free ${rate(day)})`,
    })),
  });
}

function releaseLink(factoryId: string, release: Pick<ReleaseSummary, 'release' | 'environment'>): string {
  return withQuery(path`/f/${factoryId}/reports/releases`, { release: release.release, environment: release.environment });
}

/** The factory's releases, newest first, paged; with `?release=&environment=`, one release's first week beside the previous release's. */
export async function releaseList(context: RouteContext, factoryId: string): Promise<void> {
  const { url } = context;
  const named = url.searchParams.get('release');
  if (named) return releasePage(context, factoryId, named, url.searchParams.get('environment') ?? undefined);
  const reply = await context.ask({ operation: 'releases.list', factoryId, limit: RELEASES_DEFAULT, ...cursorOf(url) });
  const base = path`/f/${factoryId}/reports/releases`;
  const body = !reply.ok
    ? errorBox(reply.status, reply.body.error)
    : reply.body.releases.length === 0
      ? html`<p class="empty">No release has sent sessions yet: Sentry's SDKs send them once <code>release</code> is set.</p>`
      : html`<div class="table-wrap"><table class="list" id="releases"><thead><tr><th scope="col">Release</th><th scope="col">Environment</th><th scope="col">First seen</th><th scope="col">Sessions</th><th scope="col">Crashed</th><th scope="col">Crash-free sessions</th><th scope="col">Crash-free users</th><th scope="col">Adoption (24 h)</th></tr></thead>
<tbody>${reply.body.releases.map(
          (release) =>
            html`<tr><td><a href="${releaseLink(factoryId, release)}">${release.release}</a></td><td>${release.environment}</td><td>${time(release.firstSeen)}</td><td>${text(release.sessions)}</td><td>${text(release.crashed)}</td><td>${percent(release.crashFreeSessions)}</td><td>${release.usersExact ? '' : 'about '}${percent(release.crashFreeUsers)}</td><td>${percent(release.adoption)}</td></tr>`,
        )}</tbody></table></div>${pager(base, {}, pageNumberOf(url), reply.body.cursor)}`;
  const note = html`<p class="muted">Sessions Sentry's SDKs sent, per release: the share that did not crash, of sessions and of users, and the release's share of the last 24 hours' sessions.</p>`;
  renderReportsPage(context, factoryId, 'releases', { title: 'Releases', body: html`${note}${body}` }, reply.status);
}

/** One release: its figures and its first week, beside the release before it in the same environment (the next older one listed). */
async function releasePage(context: RouteContext, factoryId: string, release: string, environment: string | undefined): Promise<void> {
  const reply = await context.ask({ operation: 'releases.show', factoryId, release, ...(environment ? { environment } : {}) });
  if (!reply.ok) {
    renderReportsPage(context, factoryId, 'releases', { title: 'Release', body: errorBox(reply.status, reply.body.error) }, reply.status);
    return;
  }
  const shown = reply.body;
  const list = await context.ask({ operation: 'releases.list', factoryId, environment: shown.environment, limit: 100 });
  const names = list.ok ? list.body.releases : [];
  const at = names.findIndex((entry) => entry.release === shown.release);
  const previousName = at >= 0 ? names[at + 1] : undefined;
  const previous = previousName
    ? await context.ask({ operation: 'releases.show', factoryId, release: previousName.release, environment: previousName.environment })
    : undefined;
  const figures = html`<dl class="details"><dt>Sessions</dt><dd>${text(shown.sessions)} (${text(shown.crashed)} crashed, ${text(shown.errored)} with an error)</dd>
<dt>Crash-free sessions</dt><dd>${percent(shown.crashFreeSessions)}</dd><dt>Crash-free users</dt><dd>${shown.usersExact ? '' : 'about '}${percent(shown.crashFreeUsers)} of ${text(shown.users)}</dd>
<dt>Adoption (24 h)</dt><dd>${percent(shown.adoption)}</dd><dt>First seen</dt><dd>${time(shown.firstSeen)}</dd>
<dt>New issues</dt><dd>${text(shown.newIssues.length)}</dd><dt>Regressed issues</dt><dd>${text(shown.regressedIssues.length)}</dd></dl>`;
  const trends = html`<section class="trends" aria-label="First week"><h3>${shown.release}</h3>${firstWeekChart(shown)}
${previous?.ok ? html`<h3>The release before: <a href="${releaseLink(factoryId, previous.body)}">${previous.body.release}</a></h3>${firstWeekChart(previous.body)}` : html`<p class="muted">No earlier release in ${shown.environment} to compare with.</p>`}</section>`;
  renderReportsPage(
    context,
    factoryId,
    'releases',
    { title: `Release ${shown.release}`, body: html`<h2>${shown.release} <span class="muted">${shown.environment}</span></h2>${figures}${trends}` },
    200,
  );
}
