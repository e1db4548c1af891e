import { MAX_ATTEMPTS, RETRY_DELAYS_SECONDS, retryDelaySeconds } from '../../../lambda/alerts/retry-schedule';

describe("a failed delivery's retries", () => {
  test('eight attempts in all: 5 s, 5 min, 30 min, 2 h, 5 h, 8 h and 8 h after each failure, then none', () => {
    expect(MAX_ATTEMPTS).toBe(8);
    expect([1, 2, 3, 4, 5, 6, 7].map((attempt) => retryDelaySeconds(attempt, () => 0))).toEqual([...RETRY_DELAYS_SECONDS]);
    expect(retryDelaySeconds(8)).toBeUndefined();
  });

  test('waits from 5 minutes on are shortened by up to a tenth at random, never lengthened; the first is exact', () => {
    expect(retryDelaySeconds(1, () => 0.99)).toBe(5);
    expect(retryDelaySeconds(2, () => 1)).toBe(270);
    for (const random of [0, 0.3, 0.999]) {
      const wait = retryDelaySeconds(7, () => random) as number;
      expect(wait).toBeGreaterThanOrEqual(28_800 * 0.9);
      expect(wait).toBeLessThanOrEqual(28_800);
    }
  });

  test('the whole schedule ends within 24 hours of the first attempt', () => {
    expect(RETRY_DELAYS_SECONDS.reduce((sum, delay) => sum + delay, 0)).toBeLessThan(24 * 3600);
  });
});
