import fc from 'fast-check';
import { isoTimestamp } from '../../../lambda/kernel/iso-time';

describe('isoTimestamp', () => {
  test('is Date#toISOString for any millisecond of years 0 to 9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.parse('0000-01-01T00:00:00.000Z') - 1_000, max: Date.parse('9999-12-31T23:59:59.999Z') }), (ms) => {
        expect(isoTimestamp(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 5_000 },
    );
  });

  test('is right on either side of a minute, an hour, a day and a year', () => {
    for (const boundary of [Date.UTC(2026, 10, 25, 12, 0), Date.UTC(2026, 11, 31, 23, 59) + 60_000, Date.UTC(2024, 1, 29, 23, 59)]) {
      for (const ms of [boundary - 1, boundary, boundary + 1, boundary + 59_999, boundary + 60_000]) {
        expect(isoTimestamp(ms)).toBe(new Date(ms).toISOString());
      }
    }
  });

  test('leaves years past 9999 to Date', () => {
    const ms = Date.UTC(20_000, 0, 1, 0, 0, 1, 5);
    expect(isoTimestamp(ms)).toBe(new Date(ms).toISOString());
  });
});
