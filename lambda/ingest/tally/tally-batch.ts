import type { IssueSeed, SetAsideReason } from '../issues/issue';
import { countPeople } from './count-people';
import { issuesOfEvents } from './issue-of-event';
import type { FilteredEvent, IssueEvent, PageBatch, SequencedEvent, SetAsideRecord, TallyStore } from './ports';

/** What one batch did: for the log line. */
export interface TallyOutcome {
  events: number;
  issues: number;
  factories: number;
  filtered: number;
  /** (issue, person) pairs counted into, and those taken back because an erasure overtook the batch (absent when none). */
  people?: number;
  peopleTakenBack?: number;
  /** Records set aside, per reason (none: absent), and the first few of them, for the log line (ids and field names only). */
  setAside?: Partial<Record<SetAsideReason, number>>;
  setAsideRecords?: { eventId: string; reason: SetAsideReason; detail?: string }[];
}

/** Records set aside named in one log line at most. */
const SET_ASIDE_LOGGED = 10;

/** Events of the batch grouped by a key, in stream order, the groups in the order they first appear. */
function groupBy<T>(items: readonly T[], keyOf: (item: T) => string | undefined): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    if (key === undefined) continue;
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/**
 * The event with its issue seed (id, title and fingerprint, for an issue it
 * creates): the issue its grouping candidates are tied to (issue-of-event.ts),
 * computed from the stored event by the pure grouping rule, so the tally need
 * not store what it can compute.
 */
function withSeed(item: SequencedEvent, seeds: ReadonlyMap<SequencedEvent, IssueSeed>): IssueEvent | FilteredEvent | undefined {
  const { event } = item;
  if (event.filtered !== undefined) return { ...item, filtered: event.filtered };
  const issue = seeds.get(item);
  return issue === undefined ? undefined : { ...item, issue };
}

/**
 * One stream batch of newly stored events (docs/report-issues.md#exact-counts),
 * in stream order, all of one shard: first each event's issue (its aliases,
 * issue-of-event.ts), then their feed pages (so that a count
 * never shows events that cannot be listed), then one write per (issue, person)
 * pair the events name (./count-people.ts), then one write per issue, one
 * per factory with filtered events and one per factory with records set
 * aside (the store could not read them, or they cannot be counted:
 * ./countable.ts), each counting only the records its item has not counted
 * yet. Idempotent: the same batch again, or cut elsewhere, or run by two
 * consumers at once, counts every event once.
 */
export async function tallyBatch(
  store: TallyStore,
  shardKey: string,
  events: readonly SequencedEvent[],
  unread: readonly SetAsideRecord[] = [],
): Promise<TallyOutcome> {
  const { seeds, setAside: ungroupable } = await issuesOfEvents(store, events);
  const dropped = new Set(ungroupable.map((record) => record.seq));
  const kept = events.filter((item) => !dropped.has(item.seq));
  const setAside = [...unread, ...ungroupable].sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
  const seeded = kept.map((item) => withSeed(item, seeds)).filter((item): item is IssueEvent | FilteredEvent => item !== undefined);
  const filtered = seeded.filter((item): item is FilteredEvent => 'filtered' in item);
  const byFactory = groupBy(kept, (item) => item.event.factoryId);
  const byIssueSeeded = groupBy(
    seeded.filter((item): item is IssueEvent => 'issue' in item),
    (item) => item.issue.issueId,
  );
  const pages: PageBatch[] = [
    ...[...byFactory].map(([factoryId, list]) => ({ factoryId, events: list })),
    ...[...byIssueSeeded].map(([issueId, list]) => ({ factoryId: (list[0] as IssueEvent).event.factoryId, issueId, events: list })),
  ];
  await store.writePages(shardKey, pages);
  // The people before the issues: an issue's write counts the people its events opened (./count-people.ts).
  const people = await countPeople(store, shardKey, [...byIssueSeeded.values()].flat());
  const byIssue = groupBy(people.events, (item) => item.issue.issueId);
  const filteredByFactory = groupBy(filtered, (item) => item.event.factoryId);
  // Every write settles before the batch ends (none left in flight when the function is frozen); the first failure fails the batch, which is delivered again.
  const writes = await Promise.allSettled([
    ...[...byIssue.values()].map((list) => store.addToIssue(shardKey, list)),
    ...[...filteredByFactory.values()].map((list) => store.addFiltered(shardKey, list)),
    ...[...groupBy(setAside, (record) => record.factoryId).values()].map((list) => store.addSetAside(shardKey, list)),
  ]);
  const failed = writes.find((write): write is PromiseRejectedResult => write.status === 'rejected');
  if (failed) throw failed.reason;
  const outcome: TallyOutcome = {
    events: kept.length,
    issues: byIssue.size,
    factories: byFactory.size,
    filtered: filtered.length,
    ...(people.people > 0 ? { people: people.people } : {}),
    ...(people.takenBack > 0 ? { peopleTakenBack: people.takenBack } : {}),
  };
  if (setAside.length === 0) return outcome;
  const counts: Partial<Record<SetAsideReason, number>> = {};
  for (const { reason } of setAside) counts[reason] = (counts[reason] ?? 0) + 1;
  const named = setAside.slice(0, SET_ASIDE_LOGGED).map(({ eventId, reason, detail }) => ({ eventId, reason, ...(detail === undefined ? {} : { detail }) }));
  return { ...outcome, setAside: counts, setAsideRecords: named };
}
