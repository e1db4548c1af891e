import { hashSecret } from '../../lambda/kernel/api-key';
import { addressHash, clientNetwork, clientSubject } from '../../lambda/ingest/address';
import { DEFAULT_ADDRESS_LIMITS } from '../../lambda/ingest/limits';
import { MemoryAddressLimiter } from '../../lambda/infrastructure/memory/memory-address-limiter';
import { MemoryIngestKeys } from '../../lambda/infrastructure/memory/memory-ingest-keys';

/**
 * Who may report at the ingest API, on the in-memory ports: no DynamoDB.
 * test/api/ingest*.test.ts hold the same rules through HTTP on DynamoDB
 * Local, and test/store/ingest-stores-agree.test.ts holds the DynamoDB
 * adapters to these in-memory ones. Receiving the events themselves:
 * test/lambda/ingest/receive-events.test.ts.
 */

describe('the per-address limits (GCRA, lambda/kernel/rate-limit.ts)', () => {
  const subject = { keyId: 'key_1', addressHash: 'a'.repeat(32) };
  const T0 = Date.parse('2026-11-25T10:00:00Z');

  test('60 per minute: a burst of 7 at once, then one a second', async () => {
    const limiter = new MemoryAddressLimiter(DEFAULT_ADDRESS_LIMITS);
    const burst = [];
    for (let i = 0; i < 8; i += 1) burst.push((await limiter.admit(subject, ['requests'], T0)).admitted);
    expect(burst).toEqual([true, true, true, true, true, true, true, false]);
    expect(await limiter.admit(subject, ['requests'], T0 + 999)).toMatchObject({ admitted: false, limit: 'requests', retryAfterSeconds: 1 });
    expect((await limiter.admit(subject, ['requests'], T0 + 1000)).admitted).toBe(true);
  });

  test('feature requests: 10 per hour with a burst of 2, counted against both limits, all or nothing', async () => {
    const limiter = new MemoryAddressLimiter(DEFAULT_ADDRESS_LIMITS);
    const both = ['requests', 'featureRequests'] as const;
    expect((await limiter.admit(subject, both, T0)).admitted).toBe(true);
    expect((await limiter.admit(subject, both, T0)).admitted).toBe(true);
    const refused = await limiter.admit(subject, both, T0);
    expect(refused).toEqual({ admitted: false, limit: 'featureRequests', retryAfterSeconds: 360 });
    // The refused request did not count against the per-minute limit: 5 more of those still pass.
    for (let i = 0; i < 5; i += 1) expect((await limiter.admit(subject, ['requests'], T0)).admitted).toBe(true);
    expect((await limiter.admit(subject, ['requests'], T0)).admitted).toBe(false);
    expect((await limiter.admit(subject, both, T0 + 360_000)).admitted).toBe(true);
  });

  test('each key and address is its own client', async () => {
    const limiter = new MemoryAddressLimiter(DEFAULT_ADDRESS_LIMITS);
    for (let i = 0; i < 7; i += 1) await limiter.admit(subject, ['requests'], T0);
    expect((await limiter.admit(subject, ['requests'], T0)).admitted).toBe(false);
    expect((await limiter.admit({ ...subject, addressHash: 'b'.repeat(32) }, ['requests'], T0)).admitted).toBe(true);
    expect((await limiter.admit({ ...subject, keyId: 'key_2' }, ['requests'], T0)).admitted).toBe(true);
  });
});

describe('keys at the ingest API', () => {
  test('a publishable key is allowed with its origins; a secret one is unknown here and marked exposed', async () => {
    const keys = new MemoryIngestKeys();
    keys.issue(hashSecret('dfpk_p'), { type: 'publishable', factoryId: 'fac_a', keyId: 'key_p', rateLimit: 600, origins: ['https://a.com'] });
    keys.issue(hashSecret('dfsk_s'), { type: 'secret', factoryId: 'fac_a', keyId: 'key_s', rateLimit: 600 });
    expect(await keys.authenticate(hashSecret('dfpk_p'))).toMatchObject({
      outcome: 'active',
      key: { factoryId: 'fac_a', keyId: 'key_p', origins: ['https://a.com'], rateLimit: 600 },
    });
    expect(await keys.authenticate(hashSecret('dfsk_s'))).toEqual({ outcome: 'unknown' });
    expect(await keys.markExposed(hashSecret('dfsk_s'), Date.parse('2026-11-25T10:00:00Z'))).toEqual({
      marked: true,
      keyId: 'key_s',
      factoryId: 'fac_a',
      count: 1,
    });
    expect(await keys.markExposed(hashSecret('dfsk_s'), Date.parse('2026-11-25T11:00:00Z'))).toMatchObject({ count: 2 });
    expect(keys.exposureOf(hashSecret('dfsk_s'))).toEqual({ firstSeenAt: '2026-11-25T10:00:00.000Z', lastSeenAt: '2026-11-25T11:00:00.000Z', count: 2 });
    expect(await keys.markExposed(hashSecret('dfsk_unknown'), 0)).toEqual({ marked: false });
    expect(await keys.markExposed(hashSecret('dfpk_p'), 0)).toEqual({ marked: false });
  });
});

describe('the client address', () => {
  test('IPv4 as is, IPv4-mapped IPv6 as IPv4, IPv6 by its /64', () => {
    expect(clientSubject('203.0.113.7')).toBe('203.0.113.7');
    expect(clientSubject('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientSubject('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientSubject('2001:db8:1:2::9')).toBe(clientSubject('2001:db8:1:2:ffff::1'));
    expect(clientSubject('nonsense')).toBe('unknown');
  });

  test('is stored as a hash keyed with the key: not the address, and different per key', () => {
    const hash = addressHash('dfpk_one', '203.0.113.7');
    expect(hash).toMatch(/^[0-9a-f]{32}$/);
    expect(hash).not.toBe(addressHash('dfpk_two', '203.0.113.7'));
    expect(hash).toBe(addressHash('dfpk_one', '::ffff:203.0.113.7'));
  });

  test('the log sees the network only', () => {
    expect(clientNetwork('203.0.113.7')).toBe('203.0.113.0/24');
    expect(clientNetwork('2001:db8:1:2::9')).toBe('2001:db8:1::/48');
  });
});
