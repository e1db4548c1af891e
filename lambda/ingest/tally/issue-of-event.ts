import { fingerprintHash, groupingKeys, issueIdOf, titleOf } from '../grouping/fingerprint';
import type { IssueSeed } from '../issues/issue';
import type { StoredEvent } from '../issues/stored-event';
import type { IssueAliases, SequencedEvent, SetAsideRecord } from './ports';

/**
 * Which issue each event of a batch is counted into (docs/source-maps.md#no-issue-splits). An event has
 * candidate fingerprints (groupingKeys): the current rule's (its resolved frames, then its frames as sent), then
 * the older rules' (legacy). Its issue is the one its first candidate's hash is tied to; a current hash not tied
 * yet is tied, once and for all, to the issue of the event's first candidate that is tied (a legacy one finds an
 * issue an older rule opened, which so keeps its id), or, when none is, to the issue the ingest API named (its
 * first candidate's id). Legacy hashes are never tied anew: an older, coarser rule (the message alone) must not
 * gather what the current one tells apart. Ties are written before the counts, so a batch delivered again finds
 * the same ties and counts every event into the same issue.
 *
 * When the issue an event counts into is not the one the ingest API named (a later build's resolved frames
 * found the issue an earlier build opened), that id is tied to it too, as an id alias, and so is the id an older
 * rule named it by (what events stored before showed): every id an event shows opens the issue that counts it
 * (docs/report-issues.md#issue-ids).
 *
 * Cost: one BatchGetItem per batch for the hashes and aliases this container has not seen (ties never change, so
 * it keeps them), and one conditional PutItem per hash or id alias the factory never had, ever: never a write per
 * event, and nothing at all for an event counted under the id it was named with.
 *
 * Every event whose frames resolved is counted into the one issue its resolved hash is tied to, and every event
 * of a build whose map is known follows it. One race is left, and said in docs/source-maps.md: a resolved hash
 * seen for the first time by two shards at once, one of them with events of a build whose minified issue already
 * exists and one without, is tied by whichever writes first.
 */

interface Candidate {
  hash: string;
  fingerprint: string[];
  /** The current rule's (tied when untied), not an older rule's (looked up only). */
  current: boolean;
}

function candidatesOf(event: StoredEvent): Candidate[] {
  const { current, legacy } = groupingKeys(event);
  const of = (fingerprint: string[], isCurrent: boolean): Candidate => ({ fingerprint, hash: fingerprintHash(fingerprint), current: isCurrent });
  return [...current.map((fingerprint) => of(fingerprint, true)), ...legacy.map((fingerprint) => of(fingerprint, false))];
}

/**
 * Ties the batch's untied hashes: each to the issue of the first event (in stream order) that has it, that
 * event's issue being the one of its first candidate already tied (or proposed by an earlier event of the
 * batch), else the one the ingest API named. The hashes that decide (events' first candidates) are written
 * first; the others then follow the issue their event's deciding hash ended up tied to, whichever tie won a race
 * with another shard. Updates `tied` with what the store settled.
 */
async function tieBatch(
  aliases: IssueAliases,
  factoryId: string,
  tied: Map<string, string>,
  list: readonly { item: SequencedEvent; candidates: Candidate[] }[],
): Promise<void> {
  const proposed = new Map<string, { issueId: string; decidedBy: string }>();
  for (const { item, candidates } of list) {
    const issueOf = (hash: string) => tied.get(hash) ?? proposed.get(hash)?.issueId;
    const known = candidates.find((candidate) => issueOf(candidate.hash) !== undefined);
    const issueId = known ? (issueOf(known.hash) as string) : (item.event.issueId as string);
    const decidedBy = (candidates[0] as Candidate).hash;
    for (const candidate of candidates) if (candidate.current && issueOf(candidate.hash) === undefined) proposed.set(candidate.hash, { issueId, decidedBy });
  }
  const deciding = new Set(list.map(({ candidates }) => (candidates[0] as Candidate).hash));
  const write = async (ties: Map<string, string>) => {
    if (ties.size === 0) return;
    for (const [hash, issueId] of await aliases.tieHashes(factoryId, ties)) tied.set(hash, issueId);
  };
  await write(new Map([...proposed].filter(([hash]) => deciding.has(hash)).map(([hash, { issueId }]) => [hash, issueId])));
  await write(new Map([...proposed].filter(([hash]) => !deciding.has(hash)).map(([hash, { issueId, decidedBy }]) => [hash, tied.get(decidedBy) ?? issueId])));
  // Id aliases (an issue id never collides with a hash): the id the ingest API named, and the id of each older rule's
  // candidate tied to the same issue (what events stored before showed), when the event counts under another id.
  const wanted = new Map<string, string>();
  for (const { item, candidates } of list) {
    const counted = tied.get((candidates[0] as Candidate).hash);
    if (counted === undefined) continue;
    const older = candidates.filter((candidate) => !candidate.current && tied.get(candidate.hash) === counted);
    for (const id of [item.event.issueId as string, ...older.map((candidate) => issueIdOf(factoryId, candidate.fingerprint))]) {
      if (id !== counted) wanted.set(id, counted);
    }
  }
  if (wanted.size === 0) return;
  // Read first (a container keeps what it read or wrote: no call once an alias is known), then write the missing.
  const known = await aliases.issuesOfHashes(factoryId, [...wanted.keys()]);
  await write(new Map([...wanted].filter(([id]) => !known.has(id))));
}

/** What the grouping rule makes of an event, or the name of the error it threw (never its message: it may quote the event). */
function groupingOf(event: StoredEvent): { candidates: Candidate[]; title: string } | { failed: string } {
  try {
    return { candidates: candidatesOf(event), title: titleOf(event) };
  } catch (error) {
    return { failed: error instanceof Error ? error.name : typeof error };
  }
}

/**
 * Each grouped event's issue seed (id, fingerprint, title), by the event. Filtered or ungrouped events are left out;
 * an event the grouping rule fails on is set aside (./countable.ts): it would fail every delivery of its batch.
 */
export async function issuesOfEvents(
  aliases: IssueAliases,
  events: readonly SequencedEvent[],
): Promise<{ seeds: Map<SequencedEvent, IssueSeed>; setAside: SetAsideRecord[] }> {
  const seeds = new Map<SequencedEvent, IssueSeed>();
  const setAside: SetAsideRecord[] = [];
  const titles = new Map<SequencedEvent, string>();
  const byFactory = new Map<string, { item: SequencedEvent; candidates: Candidate[] }[]>();
  for (const item of events) {
    const { event } = item;
    if (event.filtered !== undefined || event.issueId === undefined) continue;
    const grouping = groupingOf(event);
    if ('failed' in grouping) {
      setAside.push({ seq: item.seq, factoryId: event.factoryId, eventId: event.eventId, reason: 'ungroupable', detail: grouping.failed });
      continue;
    }
    const { candidates, title } = grouping;
    if (candidates.length === 0) {
      // Grouped at ingest by a rule that no longer groups it: kept where it was filed.
      seeds.set(item, { issueId: event.issueId, fingerprint: [], title: '(no message)' });
      continue;
    }
    titles.set(item, title);
    const list = byFactory.get(event.factoryId) ?? [];
    list.push({ item, candidates });
    byFactory.set(event.factoryId, list);
  }
  await Promise.all(
    [...byFactory].map(async ([factoryId, list]) => {
      const hashes = [...new Set(list.flatMap(({ candidates }) => candidates.map((candidate) => candidate.hash)))];
      const tied = await aliases.issuesOfHashes(factoryId, hashes);
      await tieBatch(aliases, factoryId, tied, list);
      for (const { item, candidates } of list) {
        const first = candidates[0] as Candidate;
        seeds.set(item, { issueId: tied.get(first.hash) as string, fingerprint: first.fingerprint, title: titles.get(item) as string });
      }
    }),
  );
  return { seeds, setAside };
}
