import { randomUUID } from 'node:crypto';
import { hashSecret } from '../../../lambda/kernel/api-key';
import { StorageUnavailableError } from '../../../lambda/kernel/errors';
import { InvalidReportError, LimitedError } from '../../../lambda/ingest/errors';
import { receiveEvents as receive, type ReceiveDependencies, type RequestReceipt } from '../../../lambda/ingest/receive-events';
import type { FrameResolver, PublishableKey } from '../../../lambda/ingest/ports';
import { MemoryIngestKeys } from '../../../lambda/infrastructure/memory/memory-ingest-keys';
import { MemoryIssueLimiter } from '../../../lambda/infrastructure/memory/memory-issue-limiter';
import { MemoryReportStore } from '../../../lambda/infrastructure/memory/memory-report-store';

/**
 * Receiving events on the in-memory ports: no DynamoDB. test/api/ingest*.test.ts
 * hold the same rules through HTTP on DynamoDB Local, and
 * test/store/ingest-stores-agree.test.ts holds the DynamoDB adapters to these
 * in-memory ones.
 */
const receipt = (overrides: Partial<RequestReceipt> = {}): RequestReceipt => ({
  factoryId: 'fac_receive',
  keyId: 'key_0000000000000001',
  origin: 'https://app.example.com',
  receivedAt: '2026-11-25T10:00:00.000Z',
  expiresAt: 1_800_000_000,
  requestToken: randomUUID(),
  ...overrides,
});
const event = (extra: Record<string, unknown> = {}) => ({ eventId: randomUUID(), message: 'boom', ...extra });

const KEY_HASH = hashSecret('dfpk_receive');
const senderKey = (rateLimit = 600): PublishableKey => ({
  factoryId: 'fac_receive',
  keyId: 'key_0000000000000001',
  origins: ['https://app.example.com'],
  rateLimit,
});

/** The limits and the key of one test: a key of `rateLimit` requests per minute, each issue half of it. */
function limits(rateLimit = 600) {
  const keys = new MemoryIngestKeys();
  keys.issue(KEY_HASH, { type: 'publishable', factoryId: 'fac_receive', keyId: 'key_0000000000000001', rateLimit, origins: ['https://app.example.com'] });
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
        factoryId: 'fac_receive',
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
    ['a missing body', undefined, /must be a JSON object/],
    ['events that is not an array', { events: 'x' }, /events must be an array/],
    ['an empty events array', { events: [] }, /events is empty/],
    ['21 events at once', { events: Array.from({ length: 21 }, () => event()) }, /at most 20 per request/],
    [
      'events none of which is valid',
      { events: [{}, { eventId: randomUUID() }] },
      /no valid event in this request: events\[0\]: eventId is required.*events\[1\]: an event needs a message or an exception/,
    ],
  ])("refuses %s as a whole (the API's 422)", async (_case, body, message) => {
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

describe("receiveEvents' order: scrubbed, then resolved through the maps, then grouped", () => {
  test('the frame resolver sees the text scrubbed, and the issue is decided on what it answered', async () => {
    const store = new MemoryReportStore();
    const given = limits();
    const seen: (string | undefined)[] = [];
    const frames: FrameResolver = {
      resolve: async (events) => {
        seen.push(...events.map((one) => one.message));
        return events.map((one) => ({ ...one, fingerprint: ['as resolved'] }));
      },
    };
    const at = receipt();
    const deps: ReceiveDependencies = { reports: store, issueLimits: given.issueLimits, keys: given.keys, frames };
    await receive(deps, { events: [event({ message: 'failed for ann@example.com' })] }, at, { key: given.key, keyHash: KEY_HASH }, Date.parse(at.receivedAt));
    expect(seen).toEqual(['failed for [Filtered:email]']);
    const sent = event({ fingerprint: ['as resolved'] });
    await receiveEvents(store, { events: [sent] }, receipt(), given);
    const [resolved, asSent] = [...store.events.values()].map((stored) => stored.issueId);
    expect(resolved).toBe(asSent);
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
    expect(store.events.has(`fac_receive#${quiet.eventId}`)).toBe(true);
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
