import { issueTrend, TREND_DAYS, TREND_HOURS } from '../../../../lambda/ingest/issues/trend';

const NOW = Date.parse('2026-11-26T03:57:00Z');

describe("an issue's trend", () => {
  test('24 hours and 14 days, each ending with the current one, a period without an entry at 0', () => {
    const trend = issueTrend({ h1: { '2026-11-26T03': 7, '2026-11-25T04': 2 }, d1: { '2026-11-26': 9 } }, NOW);
    expect(trend.hourly).toHaveLength(TREND_HOURS);
    expect(trend.daily).toHaveLength(TREND_DAYS);
    expect(trend.hourly[0]).toEqual({ start: '2026-11-25T04', events: 2 });
    expect(trend.hourly[23]).toEqual({ start: '2026-11-26T03', events: 7 });
    expect(trend.daily[13]).toEqual({ start: '2026-11-26', events: 9 });
    expect(trend.daily[0]).toEqual({ start: '2026-11-13', events: 0 });
  });

  test('counts that are not counts draw as 0; an issue without counts is all zeros', () => {
    const hostile = { h1: { '2026-11-26T03': -4, '2026-11-26T02': Number.NaN, '2026-11-26T01': 'x' as unknown as number } };
    expect(
      issueTrend(hostile, NOW)
        .hourly.slice(-3)
        .map((point) => point.events),
    ).toEqual([0, 0, 0]);
    expect(issueTrend(undefined, NOW).daily.every((point) => point.events === 0)).toBe(true);
  });
});
