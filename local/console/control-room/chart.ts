import { html, type Html } from './html';

/** One bar: its value, the tick under it (none to leave a gap when ticks would crowd), its value in words. */
export interface Bar {
  value: number;
  tick?: string;
  /** How the bar reads in the chart's accessible name ("2026-11: 12") and in its tooltip. */
  words: string;
  title: string;
}

const WIDTH = 720;
const HEIGHT = 200;
const TOP = 24;
const BOTTOM = 36;
const LEFT = 44;
const RIGHT = 8;

/** A count to draw: a whole number of at least 0 (anything else, from a faulty answer, is none). */
const countOf = (value: number): number => (Number.isFinite(value) && value > 0 ? Math.floor(value) : 0);

/**
 * A bar chart drawn on the server as inline SVG (docs/control-room-app.md#the-pages):
 * no library, no script, colours from the stylesheet's classes only.
 * Readable without colour: every bar carries its count as text above it and a
 * title, the axis its maximum, the figure a caption, and the accessible name
 * lists every value. All text passes through `html`, which escapes it.
 */
export function barChart(options: { bars: readonly Bar[]; name: string; caption: string; className?: string }): Html {
  const { bars } = options;
  const counts = bars.map((bar) => countOf(bar.value));
  const max = Math.max(1, ...counts);
  const plot = HEIGHT - TOP - BOTTOM;
  const slot = (WIDTH - LEFT - RIGHT) / Math.max(1, bars.length);
  const width = Math.min(48, Math.max(2, Math.round(slot * 0.7)));
  const label = `${options.name}: ${bars.map((bar) => bar.words).join(', ')}`;
  return html`<figure class="${options.className ? `chart ${options.className}` : 'chart'}">
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
  return html`<g><title>${bar.title}</title>
<rect class="bar" x="${x}" y="${y}" width="${width}" height="${height}"></rect>
<text class="${n === 0 ? 'value zero' : 'value'}" x="${middle}" y="${y - 4}" text-anchor="middle">${n}</text>
${bar.tick === undefined ? '' : html`<text class="tick" x="${middle}" y="${HEIGHT - BOTTOM + 16}" text-anchor="middle">${bar.tick}</text>`}</g>`;
})}
</svg>
<figcaption>${options.caption}</figcaption>
</figure>`;
}
