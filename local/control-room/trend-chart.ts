import { html, type Html } from './html';

/** One bar: its period's start as the issue's counts key it ("2026-11-26T03", "2026-11-26") and its events. */
export interface TrendBar {
  start: string;
  events: number;
}

const WIDTH = 720;
const HEIGHT = 200;
const TOP = 24;
const BOTTOM = 36;
const LEFT = 44;
const RIGHT = 8;

/** What a bar's tick says: the hour ("03h") for hours, the day ("11-26") for days. */
const tickOf = (start: string): string => (start.length === 13 ? `${start.slice(11, 13)}h` : start.slice(5, 10));
/** How a bar reads in words: "2026-11-26 03:00 UTC" or "2026-11-26". */
const periodName = (start: string): string => (start.length === 13 ? `${start.slice(0, 10)} ${start.slice(11, 13)}:00 UTC` : start);
const plural = (n: number): string => `${n} event${n === 1 ? '' : 's'}`;

/**
 * An issue's events per period as a bar chart of inline SVG
 * (docs/control-room-app.md#the-pages): drawn on the server, no script, no
 * library, colours from the stylesheet only. Readable without colour: every
 * bar carries its count as text above it and a title in words, the axis its
 * maximum, the figure a summary (total, busiest period) and an accessible
 * name listing every value. Values are numbers from the operation; the
 * period keys pass through `html`, which escapes them like any text.
 */
export function trendChart(bars: readonly TrendBar[], caption: string): Html {
  const counts = bars.map((bar) => (Number.isFinite(bar.events) && bar.events > 0 ? Math.floor(bar.events) : 0));
  const total = counts.reduce((sum, n) => sum + n, 0);
  const max = Math.max(1, ...counts);
  const busiest = counts.indexOf(Math.max(...counts, 0));
  const plot = HEIGHT - TOP - BOTTOM;
  const slot = (WIDTH - LEFT - RIGHT) / Math.max(1, bars.length);
  const width = Math.max(2, Math.round(slot * 0.7));
  // Every tick when they fit, else every third: 24 hours → 8 ticks.
  const tickEvery = bars.length > 16 ? 3 : 1;
  const label = `${caption}: ${bars.map((bar, index) => `${periodName(bar.start)} ${counts[index]}`).join(', ')}`;
  const summaryText =
    total === 0 ? 'No events in this period.' : `${plural(total)} in all; the most, ${counts[busiest]}, in ${periodName(bars[busiest]?.start ?? '')}.`;
  return html`<figure class="chart trend">
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${label}" xmlns="http://www.w3.org/2000/svg">
<line class="axis" x1="${LEFT}" y1="${HEIGHT - BOTTOM}" x2="${WIDTH - RIGHT}" y2="${HEIGHT - BOTTOM}"></line>
<text class="tick" x="${LEFT - 6}" y="${TOP + 4}" text-anchor="end">${max}</text>
<text class="tick" x="${LEFT - 6}" y="${HEIGHT - BOTTOM}" text-anchor="end">0</text>
${bars.map((bar, index) => {
    const n = counts[index] ?? 0;
    const height = n === 0 ? 0 : Math.max(1, Math.round((n / max) * plot));
    const x = Math.round(LEFT + index * slot + (slot - width) / 2);
    const middle = x + Math.round(width / 2);
    const y = HEIGHT - BOTTOM - height;
    return html`<g><title>${periodName(bar.start)}: ${plural(n)}</title>
<rect class="bar" x="${x}" y="${y}" width="${width}" height="${height}"></rect>
<text class="${n === 0 ? 'value zero' : 'value'}" x="${middle}" y="${y - 4}" text-anchor="middle">${n}</text>
${index % tickEvery === (bars.length - 1) % tickEvery ? html`<text class="tick" x="${middle}" y="${HEIGHT - BOTTOM + 16}" text-anchor="middle">${tickOf(bar.start)}</text>` : ''}</g>`;
  })}
</svg>
<figcaption>${caption}. ${summaryText}</figcaption>
</figure>`;
}

/** The issue's two trends, from `issues.show`'s `trend` (missing or malformed series draw as no bars). */
export function trendSection(trend: unknown): Html {
  const { hourly, daily } = (trend ?? {}) as { hourly?: unknown; daily?: unknown };
  const barsOf = (series: unknown): TrendBar[] =>
    Array.isArray(series)
      ? series.flatMap((point) => {
          const { start, events } = (point ?? {}) as Record<string, unknown>;
          return typeof start === 'string' && typeof events === 'number' ? [{ start, events }] : [];
        })
      : [];
  return html`<section class="trends" aria-label="Trend">
<h3>Events per hour, last 24 hours</h3>${trendChart(barsOf(hourly), 'Events per hour over the last 24 hours (UTC)')}
<h3>Events per day, last 14 days</h3>${trendChart(barsOf(daily), 'Events per day over the last 14 days (UTC)')}
</section>`;
}
