import { randomUUID } from 'node:crypto';
import { contactOfEvent } from '../../../../lambda/ingest/issues/affected';
import type { StoredEvent } from '../../../../lambda/ingest/issues/stored-event';
import { countPeople } from '../../../../lambda/ingest/tally/count-people';
import type { IssueEvent, PersonEvents, PersonPair, TallyStore } from '../../../../lambda/ingest/tally/ports';
import { MemoryReportStore } from '../../../../lambda/infrastructure/memory/memory-report-store';

const event = (n: number, email?: string): IssueEvent => ({
  seq: String(n).padStart(40, '0'),
  issue: { issueId: 'iss_00000000000000000001', fingerprint: ['x'], title: 'x' },
  event: {
    factoryId: 'fac_people',
    eventId: randomUUID(),
    receivedAt: new Date(Date.UTC(2026, 11, 1, 0, 0, n)).toISOString(),
    expiresAt: 1_900_000_000,
    ...(email === undefined ? {} : { reporter: { email } }),
  } as StoredEvent,
});

/** The memory store, recording each pair write it is asked for. */
function recording() {
  const store = new MemoryReportStore(async () => ({ inCrm: true, companyId: 'co_0000000000000001' }));
  const writes: PersonEvents[] = [];
  const addToPerson = store.addToPerson.bind(store);
  store.addToPerson = (shardKey: string, batch: PersonEvents): Promise<PersonPair> => {
    writes.push(batch);
    return addToPerson(shardKey, batch);
  };
  return { store: store as TallyStore, writes };
}

describe("counting a batch's people", () => {
  test('one pair write per person and batch, never per event; anonymous events come back as they were', async () => {
    const { store, writes } = recording();
    const batch = [event(1, 'ada@x.example'), event(2, 'ada@x.example'), event(3), event(4, 'ADA@x.example'), event(5, 'bob@x.example')];
    const counted = await countPeople(store, 'shard', batch);
    expect(writes.map((write) => write.events.length)).toEqual([3, 1]);
    expect(counted[2]).toBe(batch[2]);
    expect(counted.map((item) => item.person?.contactId)).toEqual(batch.map((item) => contactOfEvent(item.event)));
  });

  test('the event that opened its pair carries it, and carries it again when the batch comes again; no other does', async () => {
    const { store } = recording();
    const batch = [event(1, 'ada@x.example'), event(2, 'ada@x.example'), event(3, 'bob@x.example')];
    const opened = (items: IssueEvent[]) => items.map((item) => [item.person?.opens === true, item.person?.opensCompany === true]);
    expect(opened(await countPeople(store, 'shard', batch))).toEqual([
      [true, true],
      [false, false],
      [true, false],
    ]);
    expect(opened(await countPeople(store, 'shard', batch))).toEqual(opened(await countPeople(store, 'shard', batch)));
    expect(opened(await countPeople(store, 'shard', [event(4, 'ada@x.example')]))).toEqual([[false, false]]);
  });
});
