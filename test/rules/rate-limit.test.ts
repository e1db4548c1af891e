import { hashSecret } from '../../lambda/domain/api-key';
import { decideRate, intervalUs, perMinutePolicy, toMicroseconds, type RateState } from '../../lambda/domain/rate-limit';
import { MemoryKeyAuthorizer } from '../../lambda/memory/memory-key-authorizer';

/**
 * The limiter's rule (GCRA, lambda/domain/rate-limit.ts) as a pure function
 * and behind the in-memory key authorizer: no DynamoDB.
 */
const MINUTE = 60_000;

/** Feeds arrivals (ms) through the rule; returns which were admitted. */
function run(limit: number, arrivalsMs: number[]): boolean[] {
  const policy = perMinutePolicy(limit);
  let state: RateState = {};
  return arrivalsMs.map((at) => {
    const decision = decideRate(state, toMicroseconds(at), policy);
    if (decision.admitted) state = { tatUs: decision.tatUs };
    return decision.admitted;
  });
}

describe('decideRate', () => {
  test('admits a burst of a tenth of the limit plus one at one instant', () => {
    expect(run(100, Array(20).fill(0)).filter(Boolean)).toHaveLength(11);
  });

  test('a limit under 10 per minute admits one at a time, one interval apart', () => {
    expect(run(5, [0, 1, 11_999, 12_000, 12_001, 24_000])).toEqual([true, false, false, true, false, true]);
  });

  test('the limit just before a minute boundary and again just after: at most the limit plus the burst', () => {
    const limit = 100;
    const boundary = 10 * MINUTE;
    const arrivals = [...Array(limit).fill(boundary - 1), ...Array(limit).fill(boundary)];
    expect(run(limit, arrivals).filter(Boolean).length).toBeLessThanOrEqual(limit + perMinutePolicy(limit).burst);
  });

  test('a steady caller at exactly the rate is never refused', () => {
    const limit = 600;
    const step = MINUTE / limit;
    expect(run(limit, Array.from({ length: 3000 }, (_, i) => i * step)).every(Boolean)).toBe(true);
  });

  test('refusal says how long to wait: the seconds until the gate opens, at least 1', () => {
    const policy = perMinutePolicy(1);
    const first = decideRate({}, 0, policy);
    if (!first.admitted) throw new Error('the first request must be admitted');
    const second = decideRate({ tatUs: first.tatUs }, toMicroseconds(45_200), policy);
    expect(second).toMatchObject({ admitted: false, retryAfterSeconds: 15 });
  });

  test('the interval is rounded up to a whole microsecond: never looser than the limit', () => {
    expect(intervalUs(perMinutePolicy(7))).toBe(8_571_429);
  });
});

describe('MemoryKeyAuthorizer', () => {
  test('allows within the limit, throttles beyond it, and knows nothing of unknown keys', async () => {
    const keys = new MemoryKeyAuthorizer();
    keys.issue(hashSecret('dfsk_a'), { factoryId: 'fac_a', keyId: 'key_a', rateLimit: 1 });
    expect(await keys.authorize(hashSecret('dfsk_a'), 0)).toMatchObject({ outcome: 'allowed', factoryId: 'fac_a' });
    expect(await keys.authorize(hashSecret('dfsk_a'), 1)).toMatchObject({ outcome: 'throttled', retryAfterSeconds: 60 });
    expect(await keys.authorize(hashSecret('dfsk_b'), 1)).toEqual({ outcome: 'unknown' });
  });

  test('a revoked key is refused on its next request and forgotten by the container', async () => {
    const keys = new MemoryKeyAuthorizer();
    keys.issue('h', { factoryId: 'fac_a', keyId: 'key_a', rateLimit: 100 });
    await keys.authorize('h', 0);
    expect(keys.knownCaller('h')).toEqual({ factoryId: 'fac_a', keyId: 'key_a' });
    keys.revoke('h');
    expect(await keys.authorize('h', 1)).toEqual({ outcome: 'revoked' });
    expect(keys.knownCaller('h')).toBeUndefined();
  });
});
