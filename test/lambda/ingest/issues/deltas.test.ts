import { addCounts, compareSeen, epochSeconds, filteredDeltas, issueDeltas, type GroupedEvent } from '../../../../lambda/ingest/issues/deltas';
import type { StoredEvent } from '../../../../lambda/ingest/issues/stored-event';

const SEED = { issueId: 'iss_00000000000000000001', fingerprint: ['error', 'TypeError'], title: 'TypeError: x' };
const event = (eventId: string, receivedAt: string, fields: Partial<StoredEvent> = {}): StoredEvent =>
  ({
    factoryId: 'fac_a',
    keyId: 'k',
    origin: 'o',
    eventId,
    type: 'error',
    receivedAt,
    expiresAt: epochSeconds(receivedAt) + 100,
    writeToken: 'w',
    ...fields,
  }) as StoredEvent;
const grouped = (e: StoredEvent, seed = SEED): GroupedEvent => ({ event: e, issue: seed });

describe('what new events add to their issue', () => {
  test('one delta per issue: the count, first and last seen, the ends by receive time then eventId, the latest expiry', () => {
    const [delta] = issueDeltas([
      grouped(event('e2', '2026-11-21T09:00:05.000Z')),
      grouped(event('e1', '2026-11-21T09:00:00.000Z')),
      grouped(event('e3', '2026-11-21T09:00:05.000Z')),
    ]);
    expect(delta).toMatchObject({
      ...SEED,
      factoryId: 'fac_a',
      count: 3,
      firstSeenAt: '2026-11-21T09:00:00.000Z',
      lastSeenAt: '2026-11-21T09:00:05.000Z',
      firstEventId: 'e1',
      lastEventId: 'e3',
    });
    expect(delta?.expiresAt).toBe(epochSeconds('2026-11-21T09:00:05.000Z') + 100);
  });

  test('the same delta whatever order the events come in (a shard hands them in any order)', () => {
    const events = [
      grouped(event('b', '2026-11-21T09:00:01.000Z', { release: 'r1' })),
      grouped(event('a', '2026-11-21T09:00:01.000Z', { release: 'r2' })),
      grouped(event('c', '2026-11-21T09:00:00.000Z')),
    ];
    expect(issueDeltas([...events].reverse())).toEqual(issueDeltas(events));
  });

  test('the first and last release are those of the earliest and latest events that name one', () => {
    const [delta] = issueDeltas([
      grouped(event('a', '2026-11-21T09:00:00.000Z')),
      grouped(event('b', '2026-11-21T09:00:01.000Z', { release: 'web@1' })),
      grouped(event('c', '2026-11-21T09:00:02.000Z', { release: 'web@2' })),
    ]);
    expect([delta?.firstRelease, delta?.lastRelease]).toEqual(['web@1', 'web@2']);
  });

  test('its counts per period, and each visitor once', () => {
    const [delta] = issueDeltas([
      grouped(event('a', '2026-11-21T09:00:00.000Z', { visitor: 'v1' })),
      grouped(event('b', '2026-11-21T09:07:00.000Z', { visitor: 'v1' })),
    ]);
    expect(delta?.counts.m5).toEqual({ '2026-11-21T09:00': 1, '2026-11-21T09:05': 1 });
    expect(delta?.visitors).toEqual(['v1']);
  });

  test('events of two issues make two deltas, in the order the issues first appear; filtered events none', () => {
    const other = { ...SEED, issueId: 'iss_00000000000000000002' };
    const deltas = issueDeltas([
      grouped(event('a', '2026-11-21T09:00:00.000Z'), other),
      { event: event('x', '2026-11-21T09:00:00.000Z'), filtered: 'script-error' },
      grouped(event('b', '2026-11-21T09:00:01.000Z')),
    ]);
    expect(deltas.map((delta) => delta.issueId)).toEqual([other.issueId, SEED.issueId]);
  });
});

test('filtered events are counted apart, per factory and reason', () => {
  const filtered = filteredDeltas([
    { event: event('x', '2026-11-21T09:00:00.000Z'), filtered: 'script-error' },
    { event: event('y', '2026-11-21T09:00:02.000Z'), filtered: 'script-error' },
    { event: event('z', '2026-11-21T09:00:01.000Z'), filtered: 'browser-extension' },
    grouped(event('a', '2026-11-21T09:00:00.000Z')),
  ]);
  expect(filtered).toEqual([
    {
      factoryId: 'fac_a',
      counts: { 'script-error': 2, 'browser-extension': 1 },
      lastSeenAt: '2026-11-21T09:00:02.000Z',
      expiresAt: epochSeconds('2026-11-21T09:00:02.000Z') + 100,
    },
  ]);
});

describe('the helpers every store shares', () => {
  test('events compare by receive time, then eventId', () => {
    expect(compareSeen(['2026-11-21T09:00:00Z', 'b'], ['2026-11-21T09:00:01Z', 'a'])).toBe(-1);
    expect(compareSeen(['t', 'b'], ['t', 'a'])).toBe(1);
    expect(compareSeen(['t', 'a'], ['t', 'a'])).toBe(0);
  });

  test('period counts add key by key', () => {
    expect(addCounts({ m5: { k: 1 }, h1: { h: 2 } }, { m5: { k: 2, j: 1 }, h1: {}, d1: { d: 1 } })).toEqual({ m5: { k: 3, j: 1 }, h1: { h: 2 }, d1: { d: 1 } });
  });

  test('an ISO time as epoch seconds', () => {
    expect(epochSeconds('1970-01-01T00:01:40.999Z')).toBe(100);
  });
});
