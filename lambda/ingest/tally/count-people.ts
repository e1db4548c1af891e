import { contactOfEvent, type EventPerson } from '../issues/affected';
import type { StoredEvent } from '../issues/stored-event';
import type { IssueEvent, PersonEvents, PersonPair, TallyStore } from './ports';

/**
 * The people a batch's grouped events name (docs/report-issues.md#who-is-affected), counted into their (issue, person)
 * pairs before the issues are: one write per pair and batch (never one per event), the pairs written at once. Each
 * event comes back with its person; the event that opened its pair carries `opens` (and `opensCompany` when the
 * pair opened its company's), which the issue's write then counts, exactly once by the issue's marks: a batch
 * delivered again finds the same pairs opened by the same events. An anonymous event comes back as it was.
 *
 * Write, then check (docs/privacy.md#an-erasure-and-the-tally): the stream holds each event as it was stored, and an
 * erasure may have stripped its reporter since. So once the pairs are written, the events' items are read as they
 * are now (one consistent read per batch), and an event whose item no longer names its person comes back anonymous;
 * a pair none of the batch's events still names is taken back. If that read still saw the person, the erasure's
 * strip came after it, and so after the pair's write: the erasure removes the person's pairs only once its strip is
 * done, and finds this one. If the read saw the strip, the tally deletes its pair itself. No pair outlives the erasure.
 */
export async function countPeople(store: TallyStore, shardKey: string, events: readonly IssueEvent[]): Promise<PeopleCounted> {
  const pairs = new Map<string, PersonEvents & { events: IssueEvent[] }>();
  const keyOf = new Map<IssueEvent, string>();
  for (const item of events) {
    const contactId = contactOfEvent(item.event);
    if (contactId === undefined) continue;
    const key = `${item.event.factoryId}#${item.issue.issueId}#${contactId}`;
    keyOf.set(item, key);
    const pair = pairs.get(key);
    if (pair) pair.events.push(item);
    else pairs.set(key, { factoryId: item.event.factoryId, issueId: item.issue.issueId, contactId, events: [item] });
  }
  if (pairs.size === 0) return { events: [...events], people: 0, takenBack: 0 };
  const written = await settled([...pairs].map(async ([key, batch]) => [key, await store.addToPerson(shardKey, batch)] as const));
  // Only after every pair is written: a read before a write would not order it before an erasure's strip.
  const named = [...keyOf.keys()];
  const answers = await store.reportersNow(named.map((item) => item.event));
  const now = new Map(named.map((item, i) => [item, answers[i]]));
  const people = new Map(written.map(([key, pair]) => [key, personOfBatch(pairs.get(key) as PersonEvents, pair, now)]));
  const kept = [...people.values()].filter((person) => person.named.size > 0);
  const erased = [...people.values()].filter((person) => person.named.size === 0);
  await settled(
    erased.map(async (person) => {
      const heir = heirOf(person, kept);
      await store.withdrawPerson(person.batch, person.pair, heir?.batch.contactId);
      // The company this person opened is counted by the one it passed to, when that one's opening event is here.
      if (heir?.opener && person.pair.opensCompany) heir.opening.opensCompany = true;
    }),
  );
  const counted = events.map((item) => {
    const person = people.get(keyOf.get(item) ?? '');
    if (!person?.named.has(item)) return item;
    return { ...item, person: person.opener === item ? person.opening : person.counted };
  });
  return { events: counted, people: kept.length, takenBack: erased.length };
}

/** The batch's events, each with its person; how many (issue, person) pairs it counted into, and how many it took back. */
export interface PeopleCounted {
  events: IssueEvent[];
  people: number;
  /** Pairs whose events no longer name their person (an erasure overtook the batch): taken back, not counted. */
  takenBack: number;
}

/** One pair's answer for its events: which still name the person, and the event that opens the pair, if one of them. */
interface PersonOfBatch {
  batch: PersonEvents;
  pair: PersonPair;
  named: Set<IssueEvent>;
  opener?: IssueEvent;
  counted: EventPerson;
  opening: EventPerson;
}

/**
 * The events of the pair whose item still names its person. The pair's opener, when one of them, opens it; when the
 * opener is an event of this batch that no longer names them (stripped, then the person sent again), the first that
 * still does opens it instead, so that the person listed is counted once.
 */
function personOfBatch(batch: PersonEvents, pair: PersonPair, now: ReadonlyMap<IssueEvent, Pick<StoredEvent, 'reporter'> | undefined>): PersonOfBatch {
  const stillNames = (item: IssueEvent) => contactOfEvent({ factoryId: item.event.factoryId, ...now.get(item) }) === batch.contactId;
  const named = new Set(batch.events.filter(stillNames));
  const openerInBatch = batch.events.find((item) => item.event.eventId === pair.openedBy);
  const opener = openerInBatch === undefined ? undefined : named.has(openerInBatch) ? openerInBatch : [...named][0];
  const counted: EventPerson = { contactId: batch.contactId, inCrm: pair.inCrm, ...(pair.companyId === undefined ? {} : { companyId: pair.companyId }) };
  return { batch, pair, named, ...(opener === undefined ? {} : { opener }), counted, opening: { ...counted, opens: true, opensCompany: pair.opensCompany } };
}

/**
 * Who takes over the company's pair from a person taken back, when they opened it: another person of the company
 * this batch keeps (one whose pair this batch opens first), who found the company opened by the one taken back and
 * so did not count it. None: the company's pair goes with them.
 */
function heirOf(person: PersonOfBatch, kept: readonly PersonOfBatch[]): PersonOfBatch | undefined {
  const { companyId } = person.pair;
  if (companyId === undefined) return undefined;
  const sameCompany = kept.filter((other) => other.pair.companyId === companyId && other.batch.issueId === person.batch.issueId);
  return sameCompany.find((other) => other.opener !== undefined) ?? sameCompany[0];
}

/** Waits for every call; throws the first failure once all have settled (none left in flight when the function is frozen). */
async function settled<T>(calls: Promise<T>[]): Promise<T[]> {
  const results = await Promise.allSettled(calls);
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
  return results.map((result) => (result as PromiseFulfilledResult<T>).value);
}
