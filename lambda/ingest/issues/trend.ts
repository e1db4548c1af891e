import { PERIODS, periodKey, type PeriodCounts } from './buckets';

/**
 * An issue's trend as the control room draws it
 * (docs/report-issues.md#counts-per-period): events per hour over the last
 * 24 hours and per day over the last 14 days, the current hour and day
 * last, from the issue's counts per period. A period with no entry had no
 * event: zero.
 */
export const TREND_HOURS = 24;
export const TREND_DAYS = 14;

export interface TrendPoint {
  /** The period's start, as its key reads (UTC): "2026-11-26T03", "2026-11-26". */
  start: string;
  events: number;
}

export interface IssueTrend {
  hourly: TrendPoint[];
  daily: TrendPoint[];
}

function series(counts: Record<string, number> | undefined, period: 'h1' | 'd1', length: number, nowMs: number): TrendPoint[] {
  const { spanMs } = PERIODS[period];
  return Array.from({ length }, (_, index) => {
    const start = periodKey(period, nowMs - (length - 1 - index) * spanMs);
    const events = counts?.[start];
    return { start, events: typeof events === 'number' && Number.isFinite(events) && events > 0 ? events : 0 };
  });
}

export function issueTrend(counts: Partial<PeriodCounts> | undefined, nowMs: number): IssueTrend {
  return { hourly: series(counts?.h1, 'h1', TREND_HOURS, nowMs), daily: series(counts?.d1, 'd1', TREND_DAYS, nowMs) };
}
