/**
 * An issue's events counted per period, for spikes and trends
 * (docs/report-issues.md#counts-per-period): per 5 minutes, per hour and per
 * day (UTC), keyed by the period's start written out ("2026-11-26T03:55",
 * "2026-11-26T03", "2026-11-26"), so the keys read well in the item and sort
 * as time. Each issue keeps only the recent ones: enough for a spike (this
 * 5 minutes against the hour before) and for the 24-hour and 14-day trends.
 */
export const PERIODS = {
  /** Per 5 minutes: the current one and the 12 before (the hour a spike is measured against). */
  m5: { keyLength: 16, spanMs: 5 * 60_000, keep: 13 },
  /** Per hour: 24 hours and the current one. */
  h1: { keyLength: 13, spanMs: 3_600_000, keep: 25 },
  /** Per day: 14 days and today. */
  d1: { keyLength: 10, spanMs: 86_400_000, keep: 15 },
} as const;

export type Period = keyof typeof PERIODS;
export const PERIOD_NAMES = Object.keys(PERIODS) as Period[];

/** Events per period start, for each period. */
export type PeriodCounts = Record<Period, Record<string, number>>;

export const emptyCounts = (): PeriodCounts => ({ m5: {}, h1: {}, d1: {} });

/** The start of the period holding `atMs`, written as its key. */
export function periodKey(period: Period, atMs: number): string {
  const { spanMs, keyLength } = PERIODS[period];
  return new Date(Math.floor(atMs / spanMs) * spanMs).toISOString().slice(0, keyLength);
}

/** The instant a period key starts (keys are UTC; a short key reads as its first instant). */
export function periodStartMs(key: string): number {
  const full = key.length === 10 ? `${key}T00:00:00Z` : key.length === 13 ? `${key}:00:00Z` : `${key}:00Z`;
  return Date.parse(full);
}

/** Adds one event received at `atMs` to the counts. */
export function countInPeriods(counts: PeriodCounts, atMs: number, n = 1): void {
  for (const period of PERIOD_NAMES) {
    const key = periodKey(period, atMs);
    counts[period][key] = (counts[period][key] ?? 0) + n;
  }
}

/** Keys too old to keep at `nowMs`: the stores remove them so an issue item stays small. */
export function staleKeys(period: Period, keys: Iterable<string>, nowMs: number): string[] {
  const { spanMs, keep } = PERIODS[period];
  const oldest = periodStartMs(periodKey(period, nowMs)) - (keep - 1) * spanMs;
  return [...keys].filter((key) => !(periodStartMs(key) >= oldest));
}

/** The counts as kept at `nowMs`: the stale periods dropped. */
export function recentCounts(counts: Partial<PeriodCounts>, nowMs: number): PeriodCounts {
  const kept = emptyCounts();
  for (const period of PERIOD_NAMES) {
    const entries = counts[period] ?? {};
    const stale = new Set(staleKeys(period, Object.keys(entries), nowMs));
    for (const [key, value] of Object.entries(entries)) if (!stale.has(key)) kept[period][key] = value;
  }
  return kept;
}
