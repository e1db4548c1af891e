import fc from 'fast-check';
import { backoffDelay, retryAfterMs } from '../../browser-sdk/src/backoff';

describe('retry waits of the browser SDK', () => {
  test('the backoff doubles from the base, jittered between half and all of it', () => {
    expect([0, 1, 2, 3].map((attempt) => backoffDelay(attempt, 1000, 60_000, () => 0))).toEqual([500, 1000, 2000, 4000]);
    expect([0, 1, 2, 3].map((attempt) => backoffDelay(attempt, 1000, 60_000, () => 1))).toEqual([1000, 2000, 4000, 8000]);
  });

  test('the backoff never exceeds its cap nor falls under half of it once reached, whatever the attempt (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 1, max: 120_000 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, base, max, random) => {
        const delay = backoffDelay(attempt, base, max, () => random);
        const ceiling = Math.min(max, base * 2 ** Math.min(attempt, 30));
        expect(delay).toBeGreaterThanOrEqual(Math.floor(ceiling / 2));
        expect(delay).toBeLessThanOrEqual(Math.max(max, 1));
      }),
    );
  });

  test('Retry-After in seconds or as an HTTP date; nothing usable is undefined', () => {
    const now = Date.parse('2026-11-25T10:00:00Z');
    expect(retryAfterMs('7', now)).toBe(7000);
    expect(retryAfterMs('Wed, 25 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs(null, now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
  });
});
