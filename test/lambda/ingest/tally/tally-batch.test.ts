import { groupEvent, issueIdOf } from '../../../../lambda/ingest/grouping/fingerprint';
import type { StoredEvent } from '../../../../lambda/ingest/issues/stored-event';
import type { SequencedEvent } from '../../../../lambda/ingest/tally/ports';
import { tallyBatch } from '../../../../lambda/ingest/tally/tally-batch';
import { MemoryReportStore } from '../../../../lambda/infrastructure/memory/memory-report-store';

/** A batch of newly stored events counted into their issues, on the in-memory store; on DynamoDB Local: test/store/tally.test.ts. */
const NOW = Date.parse('2026-11-21T09:10:00Z');
let seq = 0;
function item(message: string, fields: Partial<StoredEvent> = {}): SequencedEvent {
  const grouping = groupEvent({ type: 'error', message });
  seq += 1;
  return {
    seq: String(seq).padStart(40, '0'),
    event: {
      factoryId: 'fac_a',
      keyId: 'k',
      origin: 'o',
      eventId: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
      type: 'error',
      message,
      receivedAt: new Date(NOW - 60_000 + seq).toISOString(),
      expiresAt: 2e9,
      writeToken: 'w',
      ...(grouping.grouped ? { issueId: issueIdOf('fac_a', grouping.fingerprint) } : { filtered: grouping.filtered }),
      ...fields,
    } as StoredEvent,
  };
}

describe('a batch of newly stored events', () => {
  test('each counted into its issue once; filtered ones apart; the outcome says how many of each', async () => {
    const store = new MemoryReportStore();
    const batch = [item('TypeError: a'), item('TypeError: a'), item('RangeError: b'), item('Script error.')];
    const outcome = await tallyBatch(store, 'shard1', batch);
    expect(outcome).toMatchObject({ events: 4, issues: 2, factories: 1, filtered: 1 });
    const issues = await store.listIssues('fac_a', { limit: 10, nowMs: NOW });
    expect(issues.map((issue) => issue.count).sort()).toEqual([1, 2]);
    expect((await store.filteredCounts('fac_a')).counts).toEqual({ 'script-error': 1 });
  });

  test('the outcome says how many (issue, person) pairs it counted and how many it took back because an erasure overtook the batch', async () => {
    const store = new MemoryReportStore();
    const ada = item('TypeError: people', { reporter: { email: 'ada@x.example' } });
    const bob = item('TypeError: people', { reporter: { email: 'bob@x.example' } });
    const carol = item('TypeError: people', { reporter: { email: 'carol@x.example' } });
    // As stored now: Ada's and Bob's items still name them, Carol's was stripped by an erasure after the stream recorded it.
    for (const { event } of [ada, bob]) store.events.set(`${event.factoryId}#${event.eventId}`, structuredClone(event));
    const { reporter: _erased, ...stripped } = carol.event;
    store.events.set(`${carol.event.factoryId}#${carol.event.eventId}`, stripped as StoredEvent);
    expect(await tallyBatch(store, 'shard1', [ada, bob, carol])).toMatchObject({ events: 3, issues: 1, people: 2, peopleTakenBack: 1 });
    expect(await tallyBatch(store, 'shard1', [item('TypeError: nobody')])).not.toHaveProperty('people');
  });

  test('the same batch delivered again counts nothing more', async () => {
    const store = new MemoryReportStore();
    const batch = [item('TypeError: again')];
    await tallyBatch(store, 'shard1', batch);
    await tallyBatch(store, 'shard1', batch);
    expect((await store.listIssues('fac_a', { limit: 10, nowMs: NOW }))[0]?.count).toBe(1);
  });

  test('records the store could not read are set aside, counted on their factory, and named in the outcome', async () => {
    const store = new MemoryReportStore();
    const outcome = await tallyBatch(
      store,
      'shard1',
      [item('TypeError: fine')],
      [{ seq: '0'.repeat(40), factoryId: 'fac_a', eventId: 'bad', reason: 'unreadable', detail: 'receivedAt' }],
    );
    expect(outcome.setAside).toEqual({ unreadable: 1 });
    expect(outcome.setAsideRecords).toEqual([{ eventId: 'bad', reason: 'unreadable', detail: 'receivedAt' }]);
    expect((await store.setAsideCounts('fac_a')).counts).toMatchObject({ unreadable: 1 });
  });
});
