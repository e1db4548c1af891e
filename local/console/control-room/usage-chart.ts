import { barChart } from './chart';
import { html, type Html } from './html';

export interface UsagePeriod {
  period: string;
  billedPasses: number;
}

/** Billed enrichment passes per month, the last `months` periods, oldest left. */
export function usageChart(periods: UsagePeriod[], months = 12): Html {
  const shown = [...periods].sort((a, b) => a.period.localeCompare(b.period)).slice(-months);
  if (shown.length === 0) return html`<p class="empty">No billed passes yet.</p>`;
  return barChart({
    name: 'Billed passes per month',
    caption: 'Billed enrichment passes per month (UTC)',
    bars: shown.map((entry) => ({
      value: entry.billedPasses,
      tick: entry.period,
      words: `${entry.period}: ${entry.billedPasses}`,
      title: `${entry.period}: ${entry.billedPasses} billed passes`,
    })),
  });
}
