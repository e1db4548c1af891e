import { contactOfEvent } from '../issues/affected';
import type { IssueEvent, PersonPair, TallyStore } from './ports';

/**
 * The people a batch's grouped events name (docs/report-issues.md#who-is-affected), counted into their (issue, person)
 * pairs before the issues are: one write per pair and batch (never one per event), the pairs written at once. Each
 * event comes back with its person; the event that opened its pair carries `opens` (and `opensCompany` when the
 * pair opened its company's), which the issue's write then counts, exactly once by the issue's marks: a batch
 * delivered again finds the same pairs opened by the same events. An anonymous event comes back as it was.
 */
export async function countPeople(store: TallyStore, shardKey: string, events: readonly IssueEvent[]): Promise<IssueEvent[]> {
  const pairs = new Map<string, { contactId: string; events: IssueEvent[] }>();
  const keyOf = new Map<IssueEvent, string>();
  for (const item of events) {
    const contactId = contactOfEvent(item.event);
    if (contactId === undefined) continue;
    const key = `${item.event.factoryId}#${item.issue.issueId}#${contactId}`;
    keyOf.set(item, key);
    const pair = pairs.get(key);
    if (pair) pair.events.push(item);
    else pairs.set(key, { contactId, events: [item] });
  }
  if (pairs.size === 0) return [...events];
  const settled = await Promise.allSettled(
    [...pairs].map(async ([key, { contactId, events: list }]) => {
      const first = list[0] as IssueEvent;
      const pair = await store.addToPerson(shardKey, { factoryId: first.event.factoryId, issueId: first.issue.issueId, contactId, events: list });
      return [key, { contactId, pair }] as const;
    }),
  );
  const failed = settled.find((write): write is PromiseRejectedResult => write.status === 'rejected');
  if (failed) throw failed.reason;
  const answers = new Map(settled.map((write) => (write as PromiseFulfilledResult<readonly [string, { contactId: string; pair: PersonPair }]>).value));
  return events.map((item) => {
    const answer = answers.get(keyOf.get(item) ?? '');
    if (!answer) return item;
    const { contactId, pair } = answer;
    const opens = pair.openedBy === item.event.eventId;
    return {
      ...item,
      person: {
        contactId,
        inCrm: pair.inCrm,
        ...(pair.companyId === undefined ? {} : { companyId: pair.companyId }),
        ...(opens ? { opens, opensCompany: pair.opensCompany } : {}),
      },
    };
  });
}
