import { html, type Html } from './html';

export interface UsagePeriod {
  period: string;
  billedPasses: number;
}

const WIDTH = 640;
const HEIGHT = 220;
const TOP = 20;
const BOTTOM = 40;
const LEFT = 48;

/**
 * Billed passes per month as a bar chart, drawn here as inline SVG: no
 * library, no script, colours from the stylesheet (classes), text escaped
 * like the rest of the page. The last `months` periods, oldest left.
 */
export function usageChart(periods: UsagePeriod[], months = 12): Html {
  const shown = [...periods].sort((a, b) => a.period.localeCompare(b.period)).slice(-months);
  if (shown.length === 0) return html`<p class="empty">No billed passes yet.</p>`;
  const max = Math.max(1, ...shown.map((entry) => entry.billedPasses));
  const plot = HEIGHT - TOP - BOTTOM;
  const slot = (WIDTH - LEFT) / shown.length;
  const bar = Math.min(48, slot * 0.7);
  const label = shown.map((entry) => `${entry.period}: ${entry.billedPasses}`).join(', ');
  return html`<figure class="chart">
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="Billed passes per month: ${label}" xmlns="http://www.w3.org/2000/svg">
<line class="axis" x1="${LEFT}" y1="${HEIGHT - BOTTOM}" x2="${WIDTH}" y2="${HEIGHT - BOTTOM}"></line>
<text class="tick" x="${LEFT - 6}" y="${TOP + 4}" text-anchor="end">${max}</text>
<text class="tick" x="${LEFT - 6}" y="${HEIGHT - BOTTOM}" text-anchor="end">0</text>
${shown.map((entry, index) => {
    const height = Math.round((entry.billedPasses / max) * plot);
    const x = Math.round(LEFT + index * slot + (slot - bar) / 2);
    const y = HEIGHT - BOTTOM - height;
    return html`<g><title>${entry.period}: ${entry.billedPasses} billed passes</title>
<rect class="bar" x="${x}" y="${y}" width="${Math.round(bar)}" height="${height}"></rect>
<text class="value" x="${x + Math.round(bar / 2)}" y="${y - 4}" text-anchor="middle">${entry.billedPasses}</text>
<text class="tick" x="${x + Math.round(bar / 2)}" y="${HEIGHT - BOTTOM + 16}" text-anchor="middle">${entry.period}</text></g>`;
  })}
</svg>
<figcaption>Billed enrichment passes per month (UTC)</figcaption>
</figure>`;
}
