import { countInPeriods, emptyCounts, periodKey, periodStartMs, recentCounts, staleKeys } from '../../../../lambda/ingest/issues/buckets';

const AT = Date.parse('2026-11-26T03:57:12.345Z');

describe("an issue's counts per period", () => {
  test("each period's key is its start, written out (UTC): it reads well and sorts as time", () => {
    expect([periodKey('m5', AT), periodKey('h1', AT), periodKey('d1', AT)]).toEqual(['2026-11-26T03:55', '2026-11-26T03', '2026-11-26']);
  });

  test('a key reads back as the instant its period starts', () => {
    expect(periodStartMs('2026-11-26T03:55')).toBe(Date.parse('2026-11-26T03:55:00Z'));
    expect(periodStartMs('2026-11-26T03')).toBe(Date.parse('2026-11-26T03:00:00Z'));
    expect(periodStartMs('2026-11-26')).toBe(Date.parse('2026-11-26T00:00:00Z'));
  });

  test('an event adds one to its 5 minutes, its hour and its day; n events n', () => {
    const counts = emptyCounts();
    countInPeriods(counts, AT);
    countInPeriods(counts, AT + 60_000, 3);
    expect(counts).toEqual({ m5: { '2026-11-26T03:55': 4 }, h1: { '2026-11-26T03': 4 }, d1: { '2026-11-26': 4 } });
  });

  test('only the recent ones are kept: 13 five-minute periods, 25 hours, 15 days', () => {
    const counts = emptyCounts();
    for (let back = 0; back < 40; back += 1) countInPeriods(counts, AT - back * 5 * 60_000);
    for (let back = 0; back < 40; back += 1) countInPeriods(counts, AT - back * 86_400_000);
    const kept = recentCounts(counts, AT);
    expect(Object.keys(kept.m5)).toHaveLength(13);
    expect(Object.keys(kept.d1)).toHaveLength(15);
    expect(Object.keys(kept.h1).length).toBeLessThanOrEqual(25);
  });

  test('stale keys are those before the oldest period kept; a key that names no time is stale too', () => {
    expect(staleKeys('h1', ['2026-11-26T03', '2026-11-25T03', '2026-11-25T02'], AT)).toEqual(['2026-11-25T02']);
    expect(staleKeys('d1', ['garbage'], AT)).toEqual(['garbage']);
  });
});
