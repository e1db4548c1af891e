import type { CallLog } from '../domain/ports';
import { fingerprintHash, groupingCandidates, titleOf } from '../ingest/fingerprint';
import type { IssueSeed } from '../issues/issue';
import type { StoredEvent } from '../issues/stored-event';
import type { IssueAliases, SequencedEvent } from './ports';

/**
 * Which issue each event of a batch is counted into (docs/source-maps.md#no-issue-splits). An event has
 * candidate fingerprints, newest rule first (resolved frames, then frames as sent: groupingCandidates). Its
 * issue is the one its first candidate's hash is tied to; a hash not tied yet is tied, once and for all, to the
 * issue of the event's first candidate that is tied, or, when none is, to the issue the ingest API named
 * (its id from the frames as sent: every issue opened before maps keeps its id). Ties are written before the
 * counts, so a batch delivered again finds the same ties and counts every event into the same issue.
 *
 * Cost: one BatchGetItem per batch for the hashes this container has not seen (ties never change, so it keeps
 * them), and one conditional PutItem per hash the factory never had, ever: never a write per event.
 */

interface Candidate {
  hash: string;
  fingerprint: string[];
}

const candidatesOf = (event: StoredEvent): Candidate[] => groupingCandidates(event).map((fingerprint) => ({ fingerprint, hash: fingerprintHash(fingerprint) }));

/** Each grouped event's issue seed (id, fingerprint, title), by the event. Filtered or ungrouped events are left out. */
export async function issuesOfEvents(aliases: IssueAliases, events: readonly SequencedEvent[], log?: CallLog): Promise<Map<SequencedEvent, IssueSeed>> {
  const seeds = new Map<SequencedEvent, IssueSeed>();
  const byFactory = new Map<string, { item: SequencedEvent; candidates: Candidate[] }[]>();
  for (const item of events) {
    const { event } = item;
    if (event.filtered !== undefined || event.issueId === undefined) continue;
    const candidates = candidatesOf(event);
    if (candidates.length === 0) {
      // Grouped at ingest by a rule that no longer groups it: kept where it was filed.
      seeds.set(item, { issueId: event.issueId, fingerprint: [], title: '(no message)' });
      continue;
    }
    const list = byFactory.get(event.factoryId) ?? [];
    list.push({ item, candidates });
    byFactory.set(event.factoryId, list);
  }
  await Promise.all(
    [...byFactory].map(async ([factoryId, list]) => {
      const hashes = [...new Set(list.flatMap(({ candidates }) => candidates.map((candidate) => candidate.hash)))];
      const tied = await aliases.issuesOfHashes(factoryId, hashes, log);
      const ties = new Map<string, string>();
      for (const { item, candidates } of list) {
        const known = candidates.find((candidate) => tied.has(candidate.hash));
        const issueId = known ? (tied.get(known.hash) as string) : (item.event.issueId as string);
        for (const candidate of candidates) {
          if (tied.has(candidate.hash)) continue;
          tied.set(candidate.hash, issueId);
          ties.set(candidate.hash, issueId);
        }
      }
      const settled = ties.size === 0 ? new Map<string, string>() : await aliases.tieHashes(factoryId, ties, log);
      for (const [hash, issueId] of settled) tied.set(hash, issueId);
      for (const { item, candidates } of list) {
        const first = candidates[0] as Candidate;
        seeds.set(item, { issueId: tied.get(first.hash) as string, fingerprint: first.fingerprint, title: titleOf(item.event) });
      }
    }),
  );
  return seeds;
}
