import fc from 'fast-check';
import { decideLease, leaseSize } from '../../../lambda/kernel/rate-lease';
import { decideRate, intervalUs, perMinutePolicy, toleranceUs, type RateState } from '../../../lambda/kernel/rate-limit';

/** A lease of a rate limit (lambda/kernel/rate-lease.ts): n admissions at once, as n single ones at one instant. */
const NOW = 1_764_072_020_000_000;
const policy = perMinutePolicy(600); // T = 100 ms, B = 60

describe('decideLease', () => {
  test('on an idle limit grants what is wanted, up to the burst plus one, and moves the TAT by that many intervals', () => {
    expect(decideLease({}, NOW, policy, 10)).toEqual({ granted: 10, tatUs: NOW + 10 * intervalUs(policy), from: 'idle' });
    expect(decideLease({}, NOW, policy, 1000)).toMatchObject({ granted: policy.burst + 1, from: 'idle' });
  });

  test('on a busy limit grants only the room left within the tolerance, from the stored TAT', () => {
    const tatUs = NOW + toleranceUs(policy) - 5 * intervalUs(policy);
    expect(decideLease({ tatUs }, NOW, policy, 50)).toEqual({ granted: 6, tatUs: tatUs + 6 * intervalUs(policy), from: 'busy' });
  });

  test('past the tolerance grants nothing and says how long to wait, at least a second', () => {
    const tatUs = NOW + toleranceUs(policy) + 2_500_000;
    expect(decideLease({ tatUs }, NOW, policy, 5)).toEqual({ granted: 0, retryAfterSeconds: 3 });
    expect(decideLease({ tatUs: NOW + toleranceUs(policy) + 1 }, NOW, policy, 5)).toEqual({ granted: 0, retryAfterSeconds: 1 });
  });

  test('n admissions at once move the TAT exactly as n single admissions at the same instant (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }),
        fc.option(fc.integer({ min: -120_000_000, max: 120_000_000 }), { nil: undefined }),
        fc.integer({ min: 1, max: 200 }),
        (limit, offset, wanted) => {
          const rule = perMinutePolicy(limit);
          const start: RateState = offset === undefined ? {} : { tatUs: NOW + offset };
          const lease = decideLease(start, NOW, rule, wanted);
          let state = start;
          let admitted = 0;
          while (admitted < wanted) {
            const one = decideRate(state, NOW, rule);
            if (!one.admitted) break;
            state = { tatUs: one.tatUs };
            admitted += 1;
          }
          expect(lease.granted).toBe(admitted);
          if (lease.granted > 0 && 'tatUs' in lease) expect(lease.tatUs).toBe(state.tatUs);
        },
      ),
    );
  });
});

describe('leaseSize', () => {
  test('a quiet container asks for one at a time', () => {
    expect(leaseSize(0, policy, 1000)).toBe(1);
    expect(leaseSize(1, policy, 1000)).toBe(2);
  });

  test('asks for half again what it used, never more than its share of the limit over the lease nor the burst plus one', () => {
    expect(leaseSize(4, policy, 1000)).toBe(6);
    // 600 a minute over a 1 s lease: a share of 10.
    expect(leaseSize(100, policy, 1000)).toBe(10);
    // A long lease is bounded by the burst plus one.
    expect(leaseSize(1000, policy, 60_000)).toBe(policy.burst + 1);
  });
});
