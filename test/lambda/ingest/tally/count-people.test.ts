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

/** An event's key in the memory store's map. */
const keyOf = (event: StoredEvent) => `${event.factoryId}#${event.eventId}`;

/** The memory store, recording each pair write it is asked for; `stored` puts events where the tally's check reads them. */
function recording() {
  const store = new MemoryReportStore(async () => ({ inCrm: true, companyId: 'co_0000000000000001' }));
  const writes: PersonEvents[] = [];
  const addToPerson = store.addToPerson.bind(store);
  store.addToPerson = (shardKey: string, batch: PersonEvents): Promise<PersonPair> => {
    writes.push(batch);
    return addToPerson(shardKey, batch);
  };
  const stored = (batch: readonly IssueEvent[]) => {
    for (const item of batch) store.events.set(keyOf(item.event), structuredClone(item.event));
    return batch;
  };
  return { store: store as TallyStore, memory: store, writes, stored };
}

describe("counting a batch's people", () => {
  test('one pair write per person and batch, never per event; anonymous events come back as they were', async () => {
    const { store, writes, stored } = recording();
    const batch = stored([event(1, 'ada@x.example'), event(2, 'ada@x.example'), event(3), event(4, 'ADA@x.example'), event(5, 'bob@x.example')]);
    const { events: counted, people, takenBack } = await countPeople(store, 'shard', batch);
    expect([people, takenBack]).toEqual([2, 0]);
    expect(writes.map((write) => write.events.length)).toEqual([3, 1]);
    expect(counted[2]).toBe(batch[2]);
    expect(counted.map((item) => item.person?.contactId)).toEqual(batch.map((item) => contactOfEvent(item.event)));
  });

  test('the event that opened its pair carries it, and carries it again when the batch comes again; no other does', async () => {
    const { store, stored } = recording();
    const batch = stored([event(1, 'ada@x.example'), event(2, 'ada@x.example'), event(3, 'bob@x.example')]);
    const opened = (items: IssueEvent[]) => items.map((item) => [item.person?.opens === true, item.person?.opensCompany === true]);
    expect(opened((await countPeople(store, 'shard', batch)).events)).toEqual([
      [true, true],
      [false, false],
      [true, false],
    ]);
    expect(opened((await countPeople(store, 'shard', batch)).events)).toEqual(opened((await countPeople(store, 'shard', batch)).events));
    expect(opened((await countPeople(store, 'shard', stored([event(4, 'ada@x.example')]))).events)).toEqual([[false, false]]);
  });

  test('an event whose stored item no longer names its person (erased since the stream recorded it) comes back anonymous, and its pair is taken back', async () => {
    const { store, memory, stored } = recording();
    const batch = stored([event(1, 'ada@x.example'), event(2, 'bob@x.example')]);
    delete memory.events.get(keyOf((batch[0] as IssueEvent).event))?.reporter;
    const { events: counted, people, takenBack } = await countPeople(store, 'shard', batch);
    expect([people, takenBack]).toEqual([1, 1]);
    expect(counted[0]).toBe(batch[0]);
    // Bob found the company opened by Ada: it passes to him, and he counts it.
    expect(counted[1]?.person).toMatchObject({ contactId: contactOfEvent((batch[1] as IssueEvent).event), opens: true, opensCompany: true });
    expect([...memory.pairs.values()].map((pair) => pair.contactId)).toEqual([contactOfEvent((batch[1] as IssueEvent).event)]);
    expect([...memory.companyPairs.values()].map((pair) => pair.openedBy)).toEqual([contactOfEvent((batch[1] as IssueEvent).event)]);
  });

  test('an event whose item is gone counts no one; delivered again, the batch takes its pair back again', async () => {
    const { store, memory } = recording();
    const batch = [event(1, 'ada@x.example')];
    for (let delivery = 0; delivery < 2; delivery += 1) {
      expect(await countPeople(store, 'shard', batch)).toEqual({ events: batch, people: 0, takenBack: 1 });
      expect([memory.pairs.size, memory.companyPairs.size]).toEqual([0, 0]);
    }
  });

  test('when the event that opened the pair was stripped but a later one of the batch still names the person, that one opens it', async () => {
    const { store, memory, stored } = recording();
    const batch = stored([event(1, 'ada@x.example'), event(2, 'ada@x.example')]);
    delete memory.events.get(keyOf((batch[0] as IssueEvent).event))?.reporter;
    const { events: counted } = await countPeople(store, 'shard', batch);
    expect(counted.map((item) => [item.person?.contactId !== undefined, item.person?.opens === true])).toEqual([
      [false, false],
      [true, true],
    ]);
    expect(memory.pairs.size).toBe(1);
  });

  test('a pair another write counted into after this batch wrote it is left to that write’s own check', async () => {
    const { store, memory, stored } = recording();
    const [ada] = stored([event(1, 'ada@x.example')]) as IssueEvent[];
    const pair = await store.addToPerson('shard', {
      factoryId: ada.event.factoryId,
      issueId: ada.issue.issueId,
      contactId: contactOfEvent(ada.event) as string,
      events: [ada],
    });
    const batch = { factoryId: ada.event.factoryId, issueId: ada.issue.issueId, contactId: contactOfEvent(ada.event) as string, events: [ada] };
    await store.addToPerson('other shard', batch);
    await store.withdrawPerson(batch, pair);
    expect(memory.pairs.size).toBe(1);
  });
});
