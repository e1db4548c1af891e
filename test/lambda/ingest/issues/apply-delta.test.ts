import { applyDelta, movesOf } from '../../../../lambda/ingest/issues/apply-delta';
import { epochSeconds, issueDeltas, type IssueDelta } from '../../../../lambda/ingest/issues/deltas';
import type { Issue } from '../../../../lambda/ingest/issues/issue';
import type { StoredEvent } from '../../../../lambda/ingest/issues/stored-event';

/** What an issue becomes when new events are added, by the decision table (its agreement with DynamoDB: test/store/item-states-agree.test.ts). */
const SEED = { issueId: 'iss_00000000000000000001', fingerprint: ['error'], title: 'TypeError: first' };
const deltaOf = (...events: [string, string, Partial<StoredEvent>?][]): IssueDelta =>
  issueDeltas(
    events.map(([eventId, receivedAt, fields]) => ({
      event: {
        factoryId: 'fac_a',
        keyId: 'k',
        origin: 'o',
        eventId,
        type: 'error',
        receivedAt,
        expiresAt: epochSeconds(receivedAt) + 86_400,
        writeToken: 'w',
        ...fields,
      } as StoredEvent,
      issue: SEED,
    })),
  )[0] as IssueDelta;

describe('an issue after new events', () => {
  test('none yet: a new open issue holding these events only', () => {
    const { issue, opened, regressed } = applyDelta(undefined, deltaOf(['e1', '2026-11-21T09:00:00.000Z', { release: 'web@1' }]));
    expect([opened, regressed]).toEqual([true, false]);
    expect(issue).toMatchObject({
      ...SEED,
      status: 'open',
      count: 1,
      firstSeen: '2026-11-21T09:00:00.000Z',
      firstEventId: 'e1',
      lastEventId: 'e1',
      firstRelease: 'web@1',
    });
  });

  test('open: counted, its last seen, last event and expiry moved by later events', () => {
    const open = applyDelta(undefined, deltaOf(['e1', '2026-11-21T09:00:00.000Z'])).issue;
    const { issue, opened } = applyDelta(open, deltaOf(['e2', '2026-11-21T09:05:00.000Z']));
    expect(opened).toBe(false);
    expect(issue).toMatchObject({ status: 'open', count: 2, lastSeen: '2026-11-21T09:05:00.000Z', lastEventId: 'e2', firstEventId: 'e1' });
  });

  test('an earlier event counted late moves first seen back, with its title, and nothing of the last', () => {
    const open = applyDelta(undefined, deltaOf(['e2', '2026-11-21T09:05:00.000Z'])).issue;
    const { issue } = applyDelta(open, deltaOf(['e1', '2026-11-21T09:00:00.000Z']));
    expect(issue).toMatchObject({ firstSeen: '2026-11-21T09:00:00.000Z', firstEventId: 'e1', lastSeen: '2026-11-21T09:05:00.000Z', lastEventId: 'e2' });
  });

  test('resolved: open again, its count carried on, a regression recorded at the new events', () => {
    const resolved: Issue = { ...applyDelta(undefined, deltaOf(['e1', '2026-11-21T09:00:00.000Z'])).issue, status: 'resolved' };
    const { issue, regressed } = applyDelta(resolved, deltaOf(['e2', '2026-11-21T10:00:00.000Z']));
    expect(regressed).toBe(true);
    expect(issue).toMatchObject({ status: 'open', count: 2, regressions: 1, regressedAt: '2026-11-21T10:00:00.000Z' });
  });

  test('ignored: stays ignored, counted', () => {
    const ignored: Issue = { ...applyDelta(undefined, deltaOf(['e1', '2026-11-21T09:00:00.000Z'])).issue, status: 'ignored' };
    expect(applyDelta(ignored, deltaOf(['e2', '2026-11-21T09:01:00.000Z'])).issue).toMatchObject({ status: 'ignored', count: 2 });
  });

  test('expired: a new issue, the old life forgotten', () => {
    const old = applyDelta(undefined, deltaOf(['e1', '2026-11-01T09:00:00.000Z'])).issue;
    const { issue, opened } = applyDelta(old, deltaOf(['e9', '2026-11-21T09:00:00.000Z']));
    expect(opened).toBe(true);
    expect(issue).toMatchObject({ count: 1, firstEventId: 'e9', status: 'open' });
  });

  test('the same events in any order of batches end in the same issue', () => {
    const events: [string, string][] = [
      ['a', '2026-11-21T09:00:00.000Z'],
      ['b', '2026-11-21T09:00:03.000Z'],
      ['c', '2026-11-21T09:00:01.000Z'],
    ];
    const forward = events.reduce<Issue | undefined>((issue, item) => applyDelta(issue, deltaOf(item)).issue, undefined);
    const backward = [...events].reverse().reduce<Issue | undefined>((issue, item) => applyDelta(issue, deltaOf(item)).issue, undefined);
    expect(backward).toEqual(forward);
  });
});

test('which ends new events move: by receive time then eventId; an issue kept before its first event was, by time only', () => {
  const existing = { lastSeen: 't5', lastEventId: 'm', firstSeen: 't1', firstEventId: 'm' };
  expect(movesOf(existing, { lastSeenAt: 't5', lastEventId: 'n', firstSeenAt: 't1', firstEventId: 'l' })).toEqual({ movesLast: true, movesFirst: true });
  expect(movesOf(existing, { lastSeenAt: 't4', lastEventId: 'z', firstSeenAt: 't2', firstEventId: 'a' })).toEqual({ movesLast: false, movesFirst: false });
  expect(movesOf({ ...existing, firstEventId: undefined }, { lastSeenAt: 't1', lastEventId: 'a', firstSeenAt: 't1', firstEventId: 'a' }).movesFirst).toBe(
    false,
  );
});
