import { fingerprintHash, groupingKeys, issueIdOf, type GroupingInput } from '../ingest/grouping/fingerprint';
import type { Issue, IssueStore } from '../ingest/issues/issue';

/**
 * Every issue id an event or an alert ever showed opens the issue that counts it (docs/report-issues.md#issue-ids).
 * An event is stored with the id its first grouping candidate names; the tally counts it into the issue that
 * candidate's hash is tied to, which differs when an earlier issue holds the bug (a later build's resolved frames,
 * an issue an older rule opened). The tally ties such an id to its issue too (an id alias); events stored before it
 * did are found by the hash of the rule family that named them. Reads only: one BatchGetItem per page of events.
 */

type ShownEvent = Record<string, unknown> & GroupingInput & { factoryId?: unknown; issueId?: unknown };

/** The keys an event's issue is found under, surest first: the hash that named its stored id, then that id's alias. */
export function issueKeysOf(event: ShownEvent): string[] {
  const { factoryId, issueId } = event;
  if (typeof factoryId !== 'string' || typeof issueId !== 'string') return [];
  const { current, legacy } = groupingKeys(event);
  const named = (deciding: string[] | undefined, naming: string[] | undefined) =>
    deciding && naming && issueIdOf(factoryId, naming) === issueId ? [fingerprintHash(deciding)] : [];
  // The current rule names by its first candidate; the older ones (version 1's id) were decided by their first.
  const keys = [...named(current[0], current[0]), ...named(legacy[0], legacy[legacy.length - 1])];
  return [...keys, issueId];
}

/** The events with the id of the issue that counts each (unchanged when no tie says otherwise). */
export async function withCountingIssue<T extends ShownEvent>(
  issues: Pick<IssueStore, 'issuesOfHashes'>,
  factoryId: string,
  events: readonly T[],
): Promise<T[]> {
  const keys = events.map(issueKeysOf);
  const wanted = [...new Set(keys.flat())];
  if (wanted.length === 0) return [...events];
  const tied = await issues.issuesOfHashes(factoryId, wanted);
  return events.map((event, index) => {
    const found = (keys[index] ?? []).map((key) => tied.get(key)).find((issue) => issue !== undefined);
    return found === undefined || found === event.issueId ? event : { ...event, issueId: found };
  });
}

/** The issue an id opens: the issue of that id, else the one the id is an alias of; undefined when neither is there. */
export async function issueByAnyId(
  issues: Pick<IssueStore, 'getIssue' | 'issuesOfHashes'>,
  factoryId: string,
  issueId: string,
  nowMs: number,
): Promise<Issue | undefined> {
  const own = await issues.getIssue(factoryId, issueId, nowMs);
  if (own) return own;
  const alias = (await issues.issuesOfHashes(factoryId, [issueId])).get(issueId);
  return alias === undefined || alias === issueId ? undefined : issues.getIssue(factoryId, alias, nowMs);
}

/** The id of the issue an id opens, for a status change; the id itself when it has no alias. */
export async function countingIssueId(
  issues: Pick<IssueStore, 'getIssue' | 'issuesOfHashes'>,
  factoryId: string,
  issueId: string,
  nowMs: number,
): Promise<string> {
  return (await issueByAnyId(issues, factoryId, issueId, nowMs))?.issueId ?? issueId;
}
