import { minuteWindow, retryAfterSeconds } from '../../lambda/domain/rate-window';

describe('rate windows', () => {
  const start = 29_000_000 * 60_000;

  test('a window is one calendar minute', () => {
    expect(minuteWindow(start)).toBe(29_000_000);
    expect(minuteWindow(start + 59_999)).toBe(29_000_000);
    expect(minuteWindow(start + 60_000)).toBe(29_000_001);
  });

  test('Retry-After is the seconds left, rounded up, at least 1', () => {
    expect(retryAfterSeconds(29_000_000, start)).toBe(60);
    expect(retryAfterSeconds(29_000_000, start + 44_200)).toBe(16);
    expect(retryAfterSeconds(29_000_000, start + 59_999)).toBe(1);
    expect(retryAfterSeconds(29_000_000, start + 61_000)).toBe(1);
  });
});
