import { parseRateLimit } from '../../client/src/rate-limit';
import { rateLimitFields } from '../../lambda/contacts/api/rate-limit-headers';

describe('parseRateLimit', () => {
  test('reads back what the service writes', () => {
    const fields = rateLimitFields({ limit: 30_000, remaining: 2_999, windowSeconds: 1 });
    expect(parseRateLimit(fields['RateLimit-Policy'] ?? null, fields.RateLimit ?? null)).toEqual({
      limit: 30_000,
      windowSeconds: 60,
      remaining: 2_999,
      resetSeconds: 1,
    });
  });

  test('takes the first policy of a list, whatever the order of its parameters', () => {
    expect(parseRateLimit('"per-key";w=60;q=100, "other";q=5;w=1', 'per-key;t=3;r=0')).toEqual({
      limit: 100,
      windowSeconds: 60,
      remaining: 0,
      resetSeconds: 3,
    });
  });

  test.each([
    ['no headers', null, null],
    ['no RateLimit', '"per-key";q=100;w=60', null],
    ['no quota', '"per-key";w=60', '"per-key";r=1;t=1'],
    ['a negative or fractional value', '"per-key";q=100;w=60', '"per-key";r=-1;t=1.5'],
    ['garbage', 'garbage=;', '???'],
  ])('is undefined for %s', (_case, policy, rateLimit) => {
    expect(parseRateLimit(policy, rateLimit)).toBeUndefined();
  });
});
