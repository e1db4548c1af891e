import { hashSecret } from '../../lambda/kernel/api-key';
import { MemoryKeyAuthorizer } from '../../lambda/infrastructure/memory/memory-key-authorizer';

/**
 * The in-memory key authorizer, the rule tests' twin of the key check: the
 * rate limit's rule (test/lambda/kernel/rate-limit.test.ts) applied per key,
 * revocation, unknown keys. Times are given, never read from the clock.
 */
/** Some instant, 20 s into a minute (ms since the epoch). */
const T0 = Date.UTC(2026, 10, 25, 12, 0, 20);

describe('MemoryKeyAuthorizer', () => {
  test('allows within the limit, throttles beyond it, and knows nothing of unknown keys', async () => {
    const keys = new MemoryKeyAuthorizer();
    keys.issue(hashSecret('dfsk_a'), { factoryId: 'fac_a', keyId: 'key_a', rateLimit: 1 });
    expect(await keys.authorize(hashSecret('dfsk_a'), T0)).toMatchObject({
      outcome: 'allowed',
      factoryId: 'fac_a',
      rate: { limit: 1, remaining: 0, windowSeconds: 60 },
    });
    expect(await keys.authorize(hashSecret('dfsk_a'), T0 + 1)).toMatchObject({ outcome: 'throttled', retryAfterSeconds: 60 });
    expect(await keys.authorize(hashSecret('dfsk_b'), T0 + 1)).toEqual({ outcome: 'unknown' });
  });

  test('a revoked key is refused on its next request and forgotten by the container', async () => {
    const keys = new MemoryKeyAuthorizer();
    keys.issue('h', { factoryId: 'fac_a', keyId: 'key_a', rateLimit: 100 });
    await keys.authorize('h', T0);
    expect(keys.knownCaller('h')).toEqual({ factoryId: 'fac_a', keyId: 'key_a' });
    keys.revoke('h');
    expect(await keys.authorize('h', T0 + 1)).toEqual({ outcome: 'revoked' });
    expect(keys.knownCaller('h')).toBeUndefined();
  });
});
