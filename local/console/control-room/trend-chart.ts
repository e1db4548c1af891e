import { barChart } from './chart';
import { html, type Html } from './html';

/** One bar: its period's start as the counts key it ("2026-11-26T03", "2026-11-26") and its events. */
export interface TrendBar {
  start: string;
  events: number;
}

/** What a bar's tick says: the hour ("03h") for hours, the day ("11-26") for days. */
const tickOf = (start: string): string => (start.length === 13 ? `${start.slice(11, 13)}h` : start.slice(5, 10));
/** How a bar reads in words: "2026-11-26 03:00 UTC" or "2026-11-26". */
const periodName = (start: string): string => (start.length === 13 ? `${start.slice(0, 10)} ${start.slice(11, 13)}:00 UTC` : start);
const plural = (n: number): string => `${n} event${n === 1 ? '' : 's'}`;
/** A count from the operation's answer: anything but a positive number is none. */
const eventsOf = (bar: TrendBar): number => (Number.isFinite(bar.events) && bar.events > 0 ? Math.floor(bar.events) : 0);

/**
 * An issue's events per period (docs/control-room-app.md#the-pages), drawn
 * by `barChart`; the caption adds a summary in words (total, busiest period).
 * Every tick when they fit, else every third, ending on the last bar: 24 hours → 8 ticks.
 */
export function trendChart(bars: readonly TrendBar[], caption: string): Html {
  const counts = bars.map(eventsOf);
  const total = counts.reduce((sum, n) => sum + n, 0);
  const busiest = counts.indexOf(Math.max(...counts, 0));
  const tickEvery = bars.length > 16 ? 3 : 1;
  const summary =
    total === 0 ? 'No events in this period.' : `${plural(total)} in all; the most, ${counts[busiest]}, in ${periodName(bars[busiest]?.start ?? '')}.`;
  return barChart({
    name: caption,
    caption: `${caption}. ${summary}`,
    className: 'trend',
    bars: bars.map((bar, index) => ({
      value: counts[index] ?? 0,
      tick: index % tickEvery === (bars.length - 1) % tickEvery ? tickOf(bar.start) : undefined,
      words: `${periodName(bar.start)} ${counts[index] ?? 0}`,
      title: `${periodName(bar.start)}: ${plural(counts[index] ?? 0)}`,
    })),
  });
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
