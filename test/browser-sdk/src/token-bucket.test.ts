import fc from 'fast-check';
import { tokenBuckets } from '../../../browser-sdk/src/token-bucket';

describe('tokenBuckets (the per-error-type limit of the browser SDK)', () => {
  test('a burst of events of one type goes at once, then the type waits for its refill', () => {
    const buckets = tokenBuckets(3, 10_000);
    expect([1, 2, 3, 4, 5].map(() => buckets.take('TypeError', 0))).toEqual([true, true, true, false, false]);
    expect(buckets.take('TypeError', 9_999)).toBe(false);
    expect(buckets.take('TypeError', 10_000)).toBe(true);
    expect(buckets.take('TypeError', 10_001)).toBe(false);
  });

  test('each type has its own bucket', () => {
    const buckets = tokenBuckets(1, 10_000);
    expect([buckets.take('TypeError', 0), buckets.take('TypeError', 0), buckets.take('RangeError', 0)]).toEqual([true, false, true]);
  });

  test('refills never exceed the burst, however long the type was quiet', () => {
    const buckets = tokenBuckets(2, 1000);
    buckets.take('E', 0);
    expect([1, 2, 3].map(() => buckets.take('E', 1_000_000))).toEqual([true, true, false]);
  });

  test('in any span of time, a type sends at most burst + span / refillMs events (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.array(fc.integer({ min: 0, max: 2000 }), { minLength: 1, maxLength: 300 }),
        (burst, refillMs, gaps) => {
          const buckets = tokenBuckets(burst, refillMs);
          let now = 0;
          let sent = 0;
          for (const gap of gaps) {
            now += gap;
            if (buckets.take('E', now)) sent += 1;
          }
          expect(sent).toBeLessThanOrEqual(burst + Math.floor(now / refillMs));
        },
      ),
    );
  });
});

test('tokenBuckets keeps at most 1,000 keys: the oldest is forgotten first', () => {
  const buckets = tokenBuckets(1, 3_600_000);
  buckets.take('first', 0);
  expect(buckets.take('first', 0)).toBe(false);
  for (let i = 0; i < 1000; i += 1) buckets.take(`message ${i}`, 0);
  // Forgotten, so a full bucket again.
  expect(buckets.take('first', 0)).toBe(true);
  expect(buckets.take('message 999', 0)).toBe(false);
});
