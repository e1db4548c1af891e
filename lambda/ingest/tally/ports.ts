import type { FilterReason, StoredEvent } from '../issues/stored-event';
import type { EventPerson } from '../issues/affected';
import type { IssueSeed, SetAsideReason } from '../issues/issue';
import type { SessionCount } from '../sessions/session-carry';

/**
 * What the tally needs from storage (docs/report-issues.md#exact-counts).
 * The DynamoDB adapter is lambda/infrastructure/store/reports/tally-writes.ts; nothing here knows
 * about AWS.
 */

/** A record's place in its stream shard: zero-padded to one width, so places compare as text. */
export type Sequence = string;

/** A stored event with its place in the stream. */
export interface SequencedEvent {
  seq: Sequence;
  event: StoredEvent;
}

/** A grouped event; `person` when it names someone (./count-people.ts). */
export type IssueEvent = SequencedEvent & { issue: IssueSeed; person?: EventPerson };
export type FilteredEvent = SequencedEvent & { filtered: FilterReason };

/**
 * A stored event the tally cannot count (./countable.ts): what its stream record's key says of it, and why. `detail`
 * names the field or the error's class, never a value: it is shown to operators and logged.
 */
export interface SetAsideRecord {
  seq: Sequence;
  factoryId: string;
  eventId: string;
  reason: SetAsideReason;
  detail?: string;
}

/** A stream batch as the store reads it: the events it could read, and the records it could not, in stream order. */
export interface ReadBatch {
  events: SequencedEvent[];
  setAside: SetAsideRecord[];
}

/** Events of one factory (a factory page) or one issue (an issue page), listed for reading newest first. */
export interface PageBatch {
  factoryId: string;
  issueId?: string;
  events: SequencedEvent[];
}

/** The events of one batch that name one person in one issue, in stream order (./count-people.ts). */
export interface PersonEvents {
  factoryId: string;
  issueId: string;
  contactId: string;
  events: readonly IssueEvent[];
}

/** The (issue, person) pair as its write left it: the event that opened it, what the CRM said, and whether it opened its company's pair. */
export interface PersonPair {
  openedBy: string;
  inCrm: boolean;
  companyId?: string;
  opensCompany: boolean;
  /** The pair's events as this write left it: a withdrawal deletes the pair only while no write counted into it since. */
  events: number;
}

/** What each event's stored item says of its reporter now, in the order the events were asked for; undefined for an item that is gone. */
export type ReportersNow = readonly (Pick<StoredEvent, 'reporter'> | undefined)[];

export interface TallyStore extends IssueAliases {
  /** Lists the events on their pages (idempotent: a page written again is the same page). */
  writePages(shardKey: string, pages: readonly PageBatch[]): Promise<void>;
  /**
   * Adds the events (all of one issue, in stream order) to their issue,
   * exactly once: the store keeps per stream shard the last record it
   * counted, and counts only later ones, in the same write.
   */
  addToIssue(shardKey: string, events: readonly IssueEvent[]): Promise<void>;
  /**
   * Adds the events of one person to their (issue, person) pair, exactly once (marks per shard, as for issues),
   * opening it on its first event; a new pair reads the person's company from the CRM once and opens the
   * (issue, company) pair. Answers the pair, so that the issue's write counts the person with the event that opened it.
   */
  addToPerson(shardKey: string, batch: PersonEvents): Promise<PersonPair>;
  /**
   * The events' items as stored now, read after their pairs are written, consistently (./count-people.ts): an
   * erasure may have stripped their reporter since the stream recorded them.
   */
  reportersNow(events: readonly StoredEvent[]): Promise<ReportersNow>;
  /**
   * Takes back a pair this batch wrote for a person none of its events names any more: deletes the pair while it is
   * still as the write left it (`pair.events`); when this person opened the company's pair, hands it to `heir` (a
   * contact id of the same company the batch keeps), or, with no heir, deletes it.
   */
  withdrawPerson(batch: PersonEvents, pair: PersonPair, heir?: string): Promise<void>;
  /** Adds filtered events (all of one factory, in stream order) to the factory's filtered counts, exactly once likewise. */
  addFiltered(shardKey: string, events: readonly FilteredEvent[]): Promise<void>;
  /** Adds records set aside (all of one factory, in stream order) to the factory's set-aside counts, exactly once likewise. */
  addSetAside(shardKey: string, records: readonly SetAsideRecord[]): Promise<void>;
}

/**
 * An issue's aliases (docs/source-maps.md#no-issue-splits): every fingerprint hash an issue was ever found by,
 * each tied to one issue once and never changed (a conditional write), so an event is counted into the issue
 * its first tied hash names. Immutable once set, so a container may keep what it has read.
 */
export interface IssueAliases {
  /** The issue each of these hashes is tied to, for those that are. */
  issuesOfHashes(factoryId: string, hashes: readonly string[]): Promise<Map<string, string>>;
  /** Ties each hash to the issue given unless it is tied already; answers the issue each is tied to after (the one given, or the earlier one). */
  tieHashes(factoryId: string, ties: ReadonlyMap<string, string>): Promise<Map<string, string>>;
}

/** A session count with its factory and its record's place in the stream (lambda/infrastructure/store/reports/session-records.ts). */
export type SequencedSessionCount = SessionCount & { factoryId: string; seq: Sequence };

/** A client report's row with the key it came with and its record's place in the stream. */
export interface SequencedDiscardCount {
  keyId: string;
  day: string;
  reason: string;
  category: string;
  quantity: number;
  seq: Sequence;
}

/** The counts of one batch for one release of one factory (ReleaseDelta's grouping), in stream order. */
export interface ReleaseCounts {
  factoryId: string;
  environment: string;
  release: string;
  counts: SequencedSessionCount[];
}

/**
 * Where release health is counted (docs/release-health.md): per release its lifetime counts and distinct users, per
 * release and hour its counts, per factory and hour the sessions started. Exactly once as the issues are: each
 * counting item keeps per stream shard the last record it counted and counts only later ones, in the same write.
 */
export interface ReleaseCountsStore {
  addToRelease(shardKey: string, counts: ReleaseCounts): Promise<void>;
  /** What SDKs said they discarded, for one key and UTC day (docs/release-health.md#what-the-sdks-dropped), exactly once as the rest. */
  addDiscards(shardKey: string, keyId: string, day: string, counts: readonly SequencedDiscardCount[]): Promise<void>;
  addToFactory(shardKey: string, factoryId: string, counts: readonly SequencedSessionCount[]): Promise<void>;
}
