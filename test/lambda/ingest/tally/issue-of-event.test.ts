import { groupEvent, issueIdOf } from '../../../../lambda/ingest/grouping/fingerprint';
import type { StoredEvent } from '../../../../lambda/ingest/issues/stored-event';
import { issuesOfEvents } from '../../../../lambda/ingest/tally/issue-of-event';
import type { SequencedEvent } from '../../../../lambda/ingest/tally/ports';
import { MemoryReportStore } from '../../../../lambda/infrastructure/memory/memory-report-store';

/** Which issue each event of a batch counts into, through the issues' aliases (on the in-memory store). */
let seq = 0;
function item(message: string, fields: Partial<StoredEvent> = {}): SequencedEvent {
  const grouping = groupEvent({ type: 'error', message });
  const issueId = grouping.grouped ? issueIdOf('fac_a', grouping.fingerprint) : undefined;
  seq += 1;
  return {
    seq: String(seq).padStart(40, '0'),
    event: {
      factoryId: 'fac_a',
      keyId: 'k',
      origin: 'o',
      eventId: `e${seq}`,
      type: 'error',
      message,
      receivedAt: '2026-11-21T09:00:00.000Z',
      expiresAt: 2e9,
      writeToken: 'w',
      ...(issueId ? { issueId } : {}),
      ...fields,
    } as StoredEvent,
  };
}

describe('the issue of each event', () => {
  test("an event's own fingerprint, tied the first time it is seen, gives the issue the ingest API filed it under", async () => {
    const event = item('TypeError: x is undefined');
    const { seeds, setAside } = await issuesOfEvents(new MemoryReportStore(), [event]);
    expect(seeds.get(event)).toMatchObject({ issueId: event.event.issueId, title: 'TypeError: x is undefined' });
    expect(setAside).toEqual([]);
  });

  test('events of one fingerprint in a batch share one issue; the tie, once made, holds for later batches', async () => {
    const store = new MemoryReportStore();
    const [a, b] = [item('RangeError: bad'), item('RangeError: bad')];
    const first = await issuesOfEvents(store, [a, b]);
    expect(first.seeds.get(a)?.issueId).toBe(first.seeds.get(b)?.issueId);
    const later = item('RangeError: bad', { issueId: 'iss_ffffffffffffffffffff' });
    expect((await issuesOfEvents(store, [later])).seeds.get(later)?.issueId).toBe(first.seeds.get(a)?.issueId);
  });

  test('a filtered event has no issue', async () => {
    const filtered = item('Script error.', { filtered: 'script-error' });
    expect((await issuesOfEvents(new MemoryReportStore(), [filtered])).seeds.has(filtered)).toBe(false);
  });
});
