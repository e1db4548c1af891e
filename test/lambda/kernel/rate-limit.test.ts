import fc from 'fast-check';
import { decideRate, intervalUs, perMinutePolicy, toleranceUs, toMicroseconds, type RateState } from '../../../lambda/kernel/rate-limit';
import { arrivalsFrom, boundOf, gapArb, limitArb, MINUTE_US, mostInAnySpan, refusalOwed } from '../../support/rate-model';

/**
 * The limiter's rule (GCRA, lambda/kernel/rate-limit.ts) as a pure function:
 * its bound, its edges, where a caller stands, and a reference model of its
 * promise. Times are given, never read from the clock. The in-memory key
 * authorizer that applies it: test/rules/key-authorizer.test.ts.
 */
const MINUTE = 60_000;
/** Some instant, 20 s into a minute (ms since the epoch). */
const T0 = Date.UTC(2026, 10, 25, 12, 0, 20);

/** Feeds arrivals (µs) through the rule, each decided on its own clock reading; returns which were admitted. */
function decideAll(limit: number, arrivalsUs: number[], clockOf: (at: number, index: number) => number = (at) => at): boolean[] {
  const policy = perMinutePolicy(limit);
  let state: RateState = {};
  return arrivalsUs.map((at, index) => {
    const decision = decideRate(state, clockOf(at, index), policy);
    if (decision.admitted) state = { tatUs: decision.tatUs };
    return decision.admitted;
  });
}

const run = (limit: number, arrivalsMs: number[]) => decideAll(limit, arrivalsMs.map(toMicroseconds));
const admittedTimes = (arrivals: number[], admitted: boolean[]) => arrivals.filter((_, i) => admitted[i]);
const count = (admitted: boolean[]) => admitted.filter(Boolean).length;
/** `n` requests spaced `gapMs` apart from `from`. */
const steady = (n: number, gapMs: number, from = T0) => Array.from({ length: n }, (_, i) => from + i * gapMs);

describe('decideRate: the bound a fixed window broke', () => {
  test.each([1, 5, 20, 100, 30_000])(
    'a limit of %i: all of it just before a minute boundary and again just after admits at most the limit plus the burst',
    (limit) => {
      const boundary = Date.UTC(2026, 10, 25, 12, 1, 0);
      const arrivals = [...Array<number>(limit).fill(boundary - 1), ...Array<number>(limit).fill(boundary)];
      const admitted = count(run(limit, arrivals));
      expect(admitted).toBeLessThanOrEqual(boundOf(limit));
      // And not fewer than the burst a fresh key is promised.
      expect(admitted).toBe(perMinutePolicy(limit).burst + 1);
    },
  );

  test('spread over a minute boundary (half before, half after, each spaced T / 2) the span around it still holds at most the bound', () => {
    const limit = 600;
    const half = intervalUs(perMinutePolicy(limit)) / 2000;
    const boundary = Date.UTC(2026, 10, 25, 12, 1, 0);
    const arrivals = steady(2 * limit, half, boundary - limit * half);
    const admitted = admittedTimes(arrivals.map(toMicroseconds), run(limit, arrivals));
    expect(mostInAnySpan(admitted)).toBeLessThanOrEqual(boundOf(limit));
  });

  test("a long steady run at 1.5× the rate gets the limit's rate: not more, and not much less", () => {
    const limit = 600; // T = 100 ms
    const minutes = 10;
    const arrivals = steady(Math.round(1.5 * limit * minutes), MINUTE / limit / 1.5);
    const admitted = count(run(limit, arrivals));
    // The burst at the start, then one per T: 10 minutes hold 10·L, plus at most the burst.
    expect(admitted).toBeGreaterThanOrEqual(limit * minutes);
    expect(admitted).toBeLessThanOrEqual(limit * minutes + perMinutePolicy(limit).burst + 1);
  });

  test('a steady caller at 0.95× the rate is never refused, for an hour', () => {
    for (const limit of [1, 7, 600]) {
      const arrivals = steady(Math.floor(0.95 * limit * 60), MINUTE / limit / 0.95);
      expect(run(limit, arrivals).every(Boolean)).toBe(true);
    }
  });

  test('a steady caller at exactly the rate is never refused, even with no burst (limit under 10)', () => {
    for (const limit of [5, 600]) {
      const step = intervalUs(perMinutePolicy(limit)) / 1000;
      expect(run(limit, steady(3000, step)).every(Boolean)).toBe(true);
    }
  });
});

describe('decideRate: edges', () => {
  test('admits a burst of a tenth of the limit plus one at one instant', () => {
    expect(count(run(100, Array<number>(20).fill(T0)))).toBe(11);
  });

  test('a limit under 10 per minute admits one at a time, one interval apart', () => {
    expect(run(5, [T0, T0 + 1, T0 + 11_999, T0 + 12_000, T0 + 12_001, T0 + 24_000])).toEqual([true, false, false, true, false, true]);
  });

  test('a limit of 1: one request a minute, the next refused for the rest of it', () => {
    expect(run(1, [T0, T0 + 1, T0 + 59_999, T0 + 60_000, T0 + 60_001])).toEqual([true, false, false, true, false]);
  });

  test('a limit of 1,000,000: a burst of 100,001 at once, then one every 60 µs', () => {
    const policy = perMinutePolicy(1_000_000);
    expect(intervalUs(policy)).toBe(60);
    expect(toleranceUs(policy)).toBe(6_000_000);
    const now = toMicroseconds(T0);
    const arrivals = [...Array<number>(100_002).fill(now), now + 60, now + 60];
    expect(count(decideAll(1_000_000, arrivals))).toBe(100_002);
  });

  test('refusal says how long to wait: the seconds until a request would be admitted, at least 1', () => {
    const policy = perMinutePolicy(1);
    const first = decideRate({}, toMicroseconds(T0), policy);
    if (!first.admitted) throw new Error('the first request must be admitted');
    expect(decideRate({ tatUs: first.tatUs }, toMicroseconds(T0 + 45_200), policy)).toMatchObject({ admitted: false, retryAfterSeconds: 15 });
    expect(decideRate({ tatUs: first.tatUs }, toMicroseconds(T0 + 59_999.5), policy)).toMatchObject({ admitted: false, retryAfterSeconds: 1 });
  });

  test('the interval is rounded up to a whole microsecond: never looser than the limit', () => {
    expect(intervalUs(perMinutePolicy(7))).toBe(8_571_429);
    const arrivals = steady(8, 8_571.428);
    expect(count(run(7, arrivals))).toBeLessThan(8);
  });
});

describe('decideRate: where the caller stands (the rate-limit headers)', () => {
  const policy = perMinutePolicy(100); // T = 600 ms, B = 10
  const now = toMicroseconds(T0);

  test('a fresh key: the whole burst remains after the first request, and one more comes within a second', () => {
    expect(decideRate({}, now, policy)).toMatchObject({ admitted: true, remaining: 10, windowSeconds: 1 });
  });

  test('remaining counts down through a burst and is 0 on the request that used the last of it', () => {
    let state: RateState = {};
    const remaining: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      const decision = decideRate(state, now, policy);
      if (!decision.admitted) throw new Error('the burst must be admitted');
      state = { tatUs: decision.tatUs };
      remaining.push(decision.remaining);
    }
    expect(remaining).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
  });

  test('on a refusal the window equals Retry-After', () => {
    const decision = decideRate({ tatUs: now + 11 * 600_000 + 2_500_000 }, now, policy);
    expect(decision).toMatchObject({ admitted: false, remaining: 0, retryAfterSeconds: 4, windowSeconds: 4 });
  });
});

describe('decideRate against a reference model of its promise (fast-check)', () => {
  const arrivalsArb = limitArb.chain((limit) => fc.record({ limit: fc.constant(limit), gaps: fc.array(gapArb(limit), { minLength: 1, maxLength: 300 }) }));

  test('any arrivals: no 60 s span admits more than the limit plus the burst, and every refusal is owed', () => {
    fc.assert(
      fc.property(arrivalsArb, ({ limit, gaps }) => {
        const arrivals = arrivalsFrom(toMicroseconds(T0), gaps);
        const admitted = decideAll(limit, arrivals);
        const times = admittedTimes(arrivals, admitted);
        expect(mostInAnySpan(times)).toBeLessThanOrEqual(boundOf(limit));
        arrivals.forEach((at, i) => {
          if (!admitted[i]) expect(refusalOwed(times, at, limit)).toBe(true);
        });
      }),
      { numRuns: 400 },
    );
  });

  test('arrivals at least T apart are all admitted, whatever the limit', () => {
    fc.assert(
      fc.property(
        limitArb.chain((limit) => {
          const interval = intervalUs(perMinutePolicy(limit));
          return fc.record({ limit: fc.constant(limit), gaps: fc.array(fc.integer({ min: interval, max: 3 * interval }), { minLength: 1, maxLength: 200 }) });
        }),
        ({ limit, gaps }) => {
          expect(decideAll(limit, arrivalsFrom(toMicroseconds(T0), gaps)).every(Boolean)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  test('clocks that differ by up to s: the bound grows by at most ⌈s / T⌉, and spaced callers stay admitted while s ≤ B·T', () => {
    fc.assert(
      fc.property(
        limitArb.chain((limit) => {
          const interval = intervalUs(perMinutePolicy(limit));
          return fc.record({
            limit: fc.constant(limit),
            skew: fc.integer({ min: 0, max: Math.min(5_000_000, 4 * interval) }),
            gaps: fc.array(gapArb(limit), { minLength: 1, maxLength: 200 }),
            offsets: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 200, maxLength: 200 }),
          });
        }),
        ({ limit, skew, gaps, offsets }) => {
          const policy = perMinutePolicy(limit);
          const interval = intervalUs(policy);
          // Each request is decided by a container whose clock runs 0…s ahead of the real one.
          const clock = (at: number, i: number) => at + Math.round((offsets[i] as number) * skew);
          const arrivals = arrivalsFrom(toMicroseconds(T0), gaps);
          const admitted = decideAll(limit, arrivals, clock);
          expect(mostInAnySpan(admittedTimes(arrivals, admitted))).toBeLessThanOrEqual(boundOf(limit) + Math.ceil(skew / interval));
          if (skew <= toleranceUs(policy)) {
            const spaced = arrivalsFrom(
              toMicroseconds(T0),
              gaps.map((gap) => Math.max(gap, interval)),
            );
            expect(decideAll(limit, spaced, clock).every(Boolean)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  test('a limit at any point of a long run: the most in any 60 s equals the bound when callers push', () => {
    // The bound is reached, not just respected: a caller sending twice the rate fills every minute.
    for (const limit of [10, 100, 1000]) {
      const arrivals = arrivalsFrom(toMicroseconds(T0), Array<number>(4 * limit).fill(intervalUs(perMinutePolicy(limit)) / 2));
      const admitted = admittedTimes(arrivals, decideAll(limit, arrivals));
      expect(mostInAnySpan(admitted)).toBeGreaterThanOrEqual(limit);
      expect(mostInAnySpan(admitted)).toBeLessThanOrEqual(boundOf(limit));
      expect(mostInAnySpan(admitted, 2 * MINUTE_US)).toBeLessThanOrEqual(2 * limit + perMinutePolicy(limit).burst);
    }
  });
});
