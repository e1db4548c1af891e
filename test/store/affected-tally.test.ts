import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { contactOfEvent } from '../../lambda/ingest/issues/affected';
import type { StoredEvent } from '../../lambda/ingest/issues/stored-event';
import { withGrouping } from '../../lambda/ingest/receive-events';
import type { ReportersNow } from '../../lambda/ingest/tally/ports';
import { tallyBatch } from '../../lambda/ingest/tally/tally-batch';
import { MemoryReportStore } from '../../lambda/infrastructure/memory/memory-report-store';
import { DynamoIssueStore } from '../../lambda/infrastructure/store/reports/dynamo-issue-store';
import { DynamoTallyStore } from '../../lambda/infrastructure/store/reports/tally-writes';
import { newFactoryId, tables, testDoc } from '../support/local-api';
import { deliveryArbitrary, playDeliveries, twoShards } from '../support/stream-deliveries';

/**
 * Who is affected, counted by the DynamoDB tally (docs/report-issues.md#who-is-affected): whatever the deliveries
 * (two shards, two consumers at once, batches repeated and cut elsewhere), each person and company is counted once
 * into the issue, each person's events exactly, as the in-memory store counts them; people not in the CRM apart.
 */
const doc = testDoc();
const T0 = Date.parse('2031-05-01T12:00:00Z');
const PEOPLE = 12;

/** Person n: a contact for n < 8, at company n % 3; not in the CRM from 8 on. */
const emailOf = (tag: string, n: number) => `p${n}@${tag}.example`;
const companyOf = (n: number) => `co_${String(n % 3).padStart(16, '0')}`;

/**
 * The tally's check reads each event's item as stored now (lambda/ingest/tally/count-people.ts). These events are
 * played to the tally without being stored (stored ones the run's tally would count a second time), and nobody is
 * erased here: the check is answered with the events as the stream has them. test/control/who-is-affected.test.ts
 * states the check itself on stored reports.
 */
class NobodyErased extends DynamoTallyStore {
  override async reportersNow(events: readonly StoredEvent[]): Promise<ReportersNow> {
    return events.map((event) => (event.reporter === undefined ? {} : { reporter: event.reporter }));
  }
}

function events(factoryId: string, tag: string, count: number): StoredEvent[] {
  return Array.from({ length: count }, (_, i) =>
    withGrouping({
      factoryId,
      keyId: 'key_affected',
      origin: 'https://a.com',
      receivedAt: new Date(T0 + i * 50).toISOString(),
      expiresAt: Math.floor(T0 / 1000) + 86_400,
      writeToken: `w${i}`,
      eventId: randomUUID(),
      type: 'error',
      message: 'boom',
      fingerprint: ['one issue'],
      // Every fifth event anonymous; the others from one of the people, some far more often than others.
      ...(i % 5 === 4 ? { visitor: 'anonymou' } : { reporter: { email: emailOf(tag, (i * i) % PEOPLE) } }),
    }),
  );
}

test('DynamoDB counts each person and company once and each person’s events exactly, as memory does, whatever the deliveries', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(deliveryArbitrary(120, 60), { minLength: 1, maxLength: 6 }), async (deliveries) => {
      const factoryId = newFactoryId('aff');
      const tag = randomUUID().slice(0, 8);
      const stored = events(factoryId, tag, 150);
      const contacts = new Map<string, string>();
      for (let n = 0; n < 8; n += 1) {
        const contactId = contactOfEvent({ factoryId, reporter: { email: emailOf(tag, n) } }) as string;
        contacts.set(contactId, companyOf(n));
        await doc.send(new PutCommand({ TableName: tables.contacts, Item: { factoryId, sk: contactId, id: contactId, companyId: companyOf(n) } }));
      }
      const shards = twoShards(stored);
      const consumers = [0, 1].map(() => new NobodyErased(doc, tables.reports, Date.now, tables.contacts));
      await playDeliveries(shards, consumers, deliveries);
      for (const [s, shard] of shards.entries()) await tallyBatch(consumers[1] as DynamoTallyStore, `shard${s}`, shard);

      const memory = new MemoryReportStore(async (_factory, contactId) =>
        contacts.has(contactId) ? { inCrm: true, companyId: contacts.get(contactId) as string } : { inCrm: false },
      );
      await memory.putEvents(stored);
      const issueId = stored[0]?.issueId as string;
      const nowMs = T0 + 60_000;
      const dynamo = new DynamoIssueStore(doc, tables.reports);
      const people = new Map<string, number>();
      for (const event of stored) {
        const contactId = contactOfEvent(event);
        if (contactId) people.set(contactId, (people.get(contactId) ?? 0) + 1);
      }
      const inCrm = [...people.keys()].filter((contactId) => contacts.has(contactId));
      const expected = { contacts: inCrm.length, notInCrm: people.size - inCrm.length, companies: new Set(inCrm.map((id) => contacts.get(id))).size };
      for (const store of [dynamo, memory]) {
        expect((await store.getIssue(factoryId, issueId, nowMs))?.affected).toEqual(expected);
        const listed = await store.peopleOf(factoryId, issueId, 100, nowMs);
        expect(new Map(listed.items.map((person) => [person.contactId, person.events]))).toEqual(people);
        expect(listed.items.every((person) => person.inCrm === contacts.has(person.contactId) && person.companyId === contacts.get(person.contactId))).toBe(
          true,
        );
      }
      expect((await dynamo.issuesOfCompany(factoryId, companyOf(0), 10, nowMs)).items).toEqual([issueId]);
    }),
    { numRuns: 3 },
  );
}, 180_000);
