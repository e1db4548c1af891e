import { randomUUID } from 'node:crypto';
import { hashSecret } from '../../lambda/kernel/api-key';
import { StorageUnavailableError } from '../../lambda/kernel/errors';
import { addressHash, clientNetwork, clientSubject } from '../../lambda/ingest/address';
import { InvalidReportError, LimitedError } from '../../lambda/ingest/errors';
import { DEFAULT_ADDRESS_LIMITS } from '../../lambda/ingest/limits';
import { receiveEvents as receive, type ReceiveDependencies, type RequestReceipt } from '../../lambda/ingest/receive-events';
import type { PublishableKey } from '../../lambda/ingest/ports';
import { MemoryAddressLimiter } from '../../lambda/infrastructure/memory/memory-address-limiter';
import { MemoryIngestKeys } from '../../lambda/infrastructure/memory/memory-ingest-keys';
import { MemoryIssueLimiter } from '../../lambda/infrastructure/memory/memory-issue-limiter';
import { MemoryReportStore } from '../../lambda/infrastructure/memory/memory-report-store';

/**
 * The ingest API's rules on the in-memory ports: no DynamoDB. test/api/
 * ingest*.test.ts hold the same rules through HTTP on DynamoDB Local, and
 * test/store/ingest-stores-agree.test.ts holds the DynamoDB adapters to
 * these in-memory ones.
 */
const receipt = (overrides: Partial<RequestReceipt> = {}): RequestReceipt => ({
  factoryId: 'fac_rules',
  keyId: 'key_0000000000000001',
  origin: 'https://app.example.com',
  receivedAt: '2026-11-25T10:00:00.000Z',
  expiresAt: 1_800_000_000,
  requestToken: randomUUID(),
  ...overrides,
});
const event = (extra: Record<string, unknown> = {}) => ({ eventId: randomUUID(), message: 'boom', ...extra });

const KEY_HASH = hashSecret('dfpk_rules');
const senderKey = (rateLimit = 600): PublishableKey => ({
  factoryId: 'fac_rules',
  keyId: 'key_0000000000000001',
  origins: ['https://app.example.com'],
  rateLimit,
});

/** The limits and the key of one test: a key of `rateLimit` requests per minute, each issue half of it. */
function limits(rateLimit = 600) {
  const keys = new MemoryIngestKeys();
  keys.issue(KEY_HASH, { type: 'publishable', factoryId: 'fac_rules', keyId: 'key_0000000000000001', rateLimit, origins: ['https://app.example.com'] });
  return { keys, issueLimits: new MemoryIssueLimiter(), key: senderKey(rateLimit) };
}

/** receiveEvents with generous limits unless some are given, at the receipt's time. */
function receiveEvents(store: MemoryReportStore, body: unknown, at: RequestReceipt, given = limits()) {
  const deps: ReceiveDependencies = { reports: store, issueLimits: given.issueLimits, keys: given.keys };
  return receive(deps, body, at, { key: given.key, keyHash: KEY_HASH }, Date.parse(at.receivedAt));
}

describe('receiveEvents', () => {
  test('stores the valid events with what the server adds, lists the invalid ones by index', async () => {
    const store = new MemoryReportStore();
    const good = event({ tags: { plan: 'pro' } });
    const result = await receiveEvents(store, { events: [good, { eventId: 'x' }, event({ type: 'nope' })] }, receipt());
    expect(result).toEqual({
      accepted: 1,
      duplicates: 0,
      filtered: 0,
      scrubbed: {},
      rejected: [
        { index: 1, error: expect.stringMatching(/eventId must be a UUID.*; an event needs|eventId must be a UUID/) },
        { index: 2, error: expect.stringMatching(/type must be one of/) },
      ],
    });
    expect([...store.events.values()]).toEqual([
      expect.objectContaining({
        eventId: good.eventId,
        type: 'error',
        message: 'boom',
        tags: { plan: 'pro' },
        factoryId: 'fac_rules',
        origin: 'https://app.example.com',
      }),
    ]);
  });

  test('an eventId the factory has is a duplicate; another factory may have it too', async () => {
    const store = new MemoryReportStore();
    const same = event();
    await receiveEvents(store, { events: [same] }, receipt());
    expect(await receiveEvents(store, { events: [same] }, receipt())).toMatchObject({ accepted: 0, duplicates: 1 });
    expect(await receiveEvents(store, { events: [same] }, receipt({ factoryId: 'fac_other' }))).toMatchObject({ accepted: 1, duplicates: 0 });
  });

  test('a write of this very request found stored (an answer lost, retried) counts as accepted, not as a duplicate', async () => {
    const store = new MemoryReportStore();
    const once = receipt();
    const body = { events: [event()] };
    await receiveEvents(store, body, once);
    expect(await receiveEvents(store, body, once)).toMatchObject({ accepted: 1, duplicates: 0 });
  });

  test.each([
    [undefined, /must be a JSON object/],
    [{ events: 'x' }, /events must be an array/],
    [{ events: [] }, /events is empty/],
    [{ events: Array.from({ length: 21 }, () => event()) }, /at most 20 per request/],
    [
      { events: [{}, { eventId: randomUUID() }] },
      /no valid event in this request: events\[0\]: eventId is required.*events\[1\]: an event needs a message or an exception/,
    ],
  ])("refuses %j as a whole (the API's 422)", async (body, message) => {
    const store = new MemoryReportStore();
    await expect(receiveEvents(store, body, receipt())).rejects.toThrow(InvalidReportError);
    await expect(receiveEvents(store, body, receipt())).rejects.toThrow(message);
    expect(store.events.size).toBe(0);
  });

  test('a failed write fails the call, after the events that could be written were stored', async () => {
    const store = new MemoryReportStore();
    const [a, b] = [event({ message: 'a' }), event({ message: 'b' })];
    const real = store.putEvents.bind(store);
    store.putEvents = async (events) => {
      const { outcomes } = await real(events.slice(0, 1));
      return { outcomes: [...outcomes, 'failed'], failure: new StorageUnavailableError('PutItem (event)', new Error('down')) };
    };
    await expect(receiveEvents(store, { events: [a, b] }, receipt())).rejects.toThrow(StorageUnavailableError);
    expect([...store.events.values()].map((stored) => stored.eventId)).toEqual([a.eventId]);
  });

  test('an event is kept only with a message or an exception; blank text counts as none', async () => {
    const store = new MemoryReportStore();
    const result = await receiveEvents(store, { events: [event({ message: '  ' }), event({ message: null, exception: { type: 'E' } })] }, receipt());
    expect(result.rejected).toEqual([{ index: 0, error: 'an event needs a message or an exception' }]);
    expect(result.accepted).toBe(1);
  });
});

describe('the per-issue and per-key limits of receiveEvents', () => {
  const at = (seconds: number) => receipt({ receivedAt: new Date(Date.parse('2026-11-25T10:00:00Z') + seconds * 1000).toISOString() });
  const storm = (message = 'TypeError: storm') => event({ message });

  test("an issue takes at most half of its key's requests (a key of 20 a minute: 10 with a burst of 1)", async () => {
    const store = new MemoryReportStore();
    const given = limits(20);
    const answers: string[] = [];
    for (let i = 0; i < 4; i += 1)
      answers.push(
        await receiveEvents(store, { events: [storm()] }, at(0), given).then(
          () => 'stored',
          (error: Error) => error.name,
        ),
      );
    expect(answers).toEqual(['stored', 'stored', 'LimitedError', 'LimitedError']);
    expect([...store.issues.values()][0]?.count).toBe(2);
  });

  test("requests refused by an issue's limit do not spend the key's: another error still gets through", async () => {
    const store = new MemoryReportStore();
    const given = limits(20);
    for (let i = 0; i < 30; i += 1) await receiveEvents(store, { events: [storm()] }, at(0), given).catch(() => undefined);
    const other = await receiveEvents(store, { events: [event({ message: 'RangeError: elsewhere' })] }, at(0), given);
    expect(other).toMatchObject({ accepted: 1 });
  });

  test('events of an issue over its limit are held back, the others stored, and the call refused with a retry time', async () => {
    const store = new MemoryReportStore();
    const given = limits(20);
    for (let i = 0; i < 2; i += 1) await receiveEvents(store, { events: [storm()] }, at(0), given);
    const quiet = event({ message: 'RangeError: quiet' });
    const refused = await receiveEvents(store, { events: [storm(), quiet] }, at(0), given).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LimitedError);
    expect(refused).toMatchObject({ limit: 'issue', stored: 1, retryAfterSeconds: expect.any(Number) });
    expect(store.events.has(`fac_rules#${quiet.eventId}`)).toBe(true);
  });

  test("the key's own limit refuses past its requests per minute, whatever the issues", async () => {
    const store = new MemoryReportStore();
    const given = limits(20);
    const answers: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      answers.push(
        await receiveEvents(store, { events: [event({ message: `E${i}: distinct` })] }, at(0), given).then(
          () => 'stored',
          (error: LimitedError) => error.limit,
        ),
      );
    }
    expect(answers).toEqual(['stored', 'stored', 'stored', 'key']);
  });
});

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
