import {
  addAffected,
  peopleBusiestFirst,
  type AffectedEraser,
  type AffectedPerson,
  type AffectedReader,
  type Bounded,
  type CrmLink,
} from '../../ingest/issues/affected';
import { applyDelta } from '../../ingest/issues/apply-delta';
import { filteredDeltas, issueDeltas } from '../../ingest/issues/deltas';
import {
  byLastSeen,
  changeStatus,
  isExpired,
  issueAsOf,
  type FilteredCounts,
  type Issue,
  type IssueStatus,
  type IssueStore,
  type SetAsideCounts,
  type StatusChange,
} from '../../ingest/issues/issue';
import type { ListPosition } from '../../ingest/issues/issue';
import { newestEventFirst, type EventView, type StoredEvent } from '../../ingest/issues/stored-event';
import type { EventOutcome, ReportStore, StoredFeatureRequest } from '../../ingest/ports';
import type {
  FilteredEvent,
  IssueEvent,
  PageBatch,
  PersonEvents,
  PersonPair,
  ReportersNow,
  SequencedEvent,
  SetAsideRecord,
  TallyStore,
} from '../../ingest/tally/ports';
import { tallyBatch } from '../../ingest/tally/tally-batch';

/**
 * ReportStore, IssueStore and TallyStore in memory: one record per factory
 * and eventId/requestId, the first write wins; issues kept by the rules of
 * lambda/ingest/issues as written (deltas, applyDelta), through the same tally
 * (lambda/ingest/tally/tally-batch.ts) the stream runs on DynamoDB, here at once:
 * the events a call stores are tallied before it returns, as one batch of a
 * shard of its own. Marks per shard make a batch tallied again count once,
 * as on DynamoDB.
 */
/** What the CRM says of a contact id: the in-memory twin of the tally's one read of a new person. */
export type CrmLookup = (factoryId: string, contactId: string) => Promise<CrmLink>;

/** An (issue, person) pair in memory, as its DynamoDB item keeps it (lambda/infrastructure/store/reports/affected-items.ts). */
interface MemoryPair extends AffectedPerson {
  factoryId: string;
  issueId: string;
  openedBy: string;
  expiresAt: number;
}

export class MemoryReportStore implements ReportStore, IssueStore, TallyStore, AffectedReader, AffectedEraser {
  /** (issue, person) pairs by factory, issue and contact; (issue, company) pairs by factory, issue and company, with the contact that opened each. */
  readonly pairs = new Map<string, MemoryPair>();
  readonly companyPairs = new Map<string, { factoryId: string; issueId: string; companyId: string; openedBy: string; expiresAt: number }>();

  /** `crm`: what the CRM says of a person (none: nobody is a contact). */
  constructor(private readonly crm: CrmLookup = async () => ({ inCrm: false })) {}

  readonly events = new Map<string, StoredEvent>();
  readonly featureRequests = new Map<string, StoredFeatureRequest>();
  readonly issues = new Map<string, Issue>();
  readonly filtered = new Map<string, FilteredCounts>();
  readonly setAside = new Map<string, SetAsideCounts>();
  /** Per item and shard, the last record counted. */
  private readonly marks = new Map<string, string>();
  /** Issue aliases: factory and fingerprint hash → issue, each set once (docs/source-maps.md#no-issue-splits). */
  readonly aliases = new Map<string, string>();
  /** The issue each event was counted into (its aliases decide: it may differ from the issue the ingest API named). */
  private readonly countedIn = new Map<string, string>();
  private sequence = 0;

  async putEvents(events: readonly StoredEvent[]): Promise<{ outcomes: EventOutcome[] }> {
    const stored: SequencedEvent[] = [];
    const firsts = new Set<string>();
    const outcomes = events.map((event): EventOutcome => {
      if (firsts.has(event.eventId)) return 'duplicate';
      firsts.add(event.eventId);
      const id = `${event.factoryId}#${event.eventId}`;
      const existing = this.events.get(id);
      // Our own earlier write: stored (and counted) then.
      if (existing) return existing.writeToken === event.writeToken ? 'stored' : 'duplicate';
      this.events.set(id, event);
      this.sequence += 1;
      stored.push({ seq: String(this.sequence).padStart(40, '0'), event });
      return 'stored';
    });
    if (stored.length > 0) await tallyBatch(this, 'memory', stored);
    return { outcomes };
  }

  async writePages(_shardKey: string, _pages: readonly PageBatch[]): Promise<void> {
    // Events are read from the map itself.
  }

  async addToIssue(shardKey: string, events: readonly IssueEvent[]): Promise<void> {
    const first = events[0];
    if (!first) return;
    const key = `${first.event.factoryId}#${first.issue.issueId}`;
    const fresh = this.uncounted(key, shardKey, events);
    for (const { event, issue } of fresh) this.countedIn.set(`${event.factoryId}#${event.eventId}`, issue.issueId);
    const delta = issueDeltas(fresh)[0];
    if (delta) this.issues.set(key, applyDelta(this.issues.get(key), delta).issue);
  }

  async addToPerson(shardKey: string, batch: PersonEvents): Promise<PersonPair> {
    const { factoryId, issueId, contactId } = batch;
    const key = `${factoryId}#${issueId}#${contactId}`;
    const fresh = this.uncounted(`person#${key}`, shardKey, batch.events);
    let pair = this.pairs.get(key);
    const first = fresh[0];
    if (!pair && first) {
      const link = await this.crm(factoryId, contactId);
      pair = {
        factoryId,
        issueId,
        contactId,
        openedBy: first.event.eventId,
        events: 0,
        firstSeen: first.event.receivedAt,
        lastSeen: first.event.receivedAt,
        expiresAt: 0,
        ...link,
      };
      this.pairs.set(key, pair);
      if (link.companyId !== undefined) {
        const companyKey = `${factoryId}#${issueId}#${link.companyId}`;
        if (!this.companyPairs.has(companyKey))
          this.companyPairs.set(companyKey, { factoryId, issueId, companyId: link.companyId, openedBy: contactId, expiresAt: 0 });
      }
    }
    if (!pair) return { openedBy: '', inCrm: false, opensCompany: false, events: 0 };
    for (const { event } of fresh) {
      pair.events += 1;
      if (event.receivedAt < pair.firstSeen) pair.firstSeen = event.receivedAt;
      if (event.receivedAt > pair.lastSeen) pair.lastSeen = event.receivedAt;
      pair.expiresAt = Math.max(pair.expiresAt, event.expiresAt);
    }
    const company = pair.companyId === undefined ? undefined : this.companyPairs.get(`${factoryId}#${issueId}#${pair.companyId}`);
    if (company) company.expiresAt = Math.max(company.expiresAt, pair.expiresAt);
    return {
      openedBy: pair.openedBy,
      inCrm: pair.inCrm,
      ...(pair.companyId === undefined ? {} : { companyId: pair.companyId }),
      opensCompany: company?.openedBy === contactId,
      events: pair.events,
    };
  }

  async reportersNow(events: readonly StoredEvent[]): Promise<ReportersNow> {
    return events.map((event) => {
      const stored = this.events.get(`${event.factoryId}#${event.eventId}`);
      if (!stored) return undefined;
      return stored.reporter === undefined ? {} : { reporter: { ...stored.reporter } };
    });
  }

  async withdrawPerson(batch: PersonEvents, pair: PersonPair, heir?: string): Promise<void> {
    const { factoryId, issueId, contactId } = batch;
    const key = `${factoryId}#${issueId}#${contactId}`;
    // As DynamoDB's conditional writes: only the pair as this batch's write left it, only the company's pair this person opened.
    if (this.pairs.get(key)?.contactId !== contactId || this.pairs.get(key)?.events !== pair.events) return;
    this.pairs.delete(key);
    const companyKey = `${factoryId}#${issueId}#${pair.companyId}`;
    const company = this.companyPairs.get(companyKey);
    if (company?.openedBy !== contactId) return;
    if (heir === undefined) this.companyPairs.delete(companyKey);
    else company.openedBy = heir;
  }

  async peopleOf(factoryId: string, issueId: string, limit: number, nowMs: number): Promise<Bounded<AffectedPerson>> {
    const all = [...this.pairs.values()].filter((pair) => pair.factoryId === factoryId && pair.issueId === issueId && pair.expiresAt > nowMs / 1000);
    return { items: all.map(personOf).sort(peopleBusiestFirst).slice(0, limit), complete: all.length <= limit };
  }

  async issuesOfContact(factoryId: string, contactId: string, limit: number, nowMs: number): Promise<Bounded<AffectedPerson & { issueId: string }>> {
    const all = [...this.pairs.values()].filter((pair) => pair.factoryId === factoryId && pair.contactId === contactId && pair.expiresAt > nowMs / 1000);
    return { items: all.map((pair) => ({ issueId: pair.issueId, ...personOf(pair) })).slice(0, limit), complete: all.length <= limit };
  }

  async issuesOfCompany(factoryId: string, companyId: string, limit: number, nowMs: number): Promise<Bounded<string>> {
    const all = [...this.companyPairs.values()].filter((pair) => pair.factoryId === factoryId && pair.companyId === companyId && pair.expiresAt > nowMs / 1000);
    return { items: all.map((pair) => pair.issueId).slice(0, limit), complete: all.length <= limit };
  }

  async forgetPerson(factoryId: string, contactId: string, _nowMs: number): Promise<string[]> {
    const forgotten: string[] = [];
    for (const [key, pair] of this.pairs) {
      if (pair.factoryId !== factoryId || pair.contactId !== contactId) continue;
      this.pairs.delete(key);
      forgotten.push(pair.issueId);
      const issueKey = `${factoryId}#${pair.issueId}`;
      const issue = this.issues.get(issueKey);
      // The person's company leaves the issue with its last person counted in it.
      const colleague = [...this.pairs.values()].find(
        (other) => other.factoryId === factoryId && other.issueId === pair.issueId && other.companyId === pair.companyId,
      );
      const companyLeft = pair.companyId !== undefined && colleague === undefined;
      const companyPair = this.companyPairs.get(`${factoryId}#${pair.issueId}#${pair.companyId}`);
      if (companyLeft) this.companyPairs.delete(`${factoryId}#${pair.issueId}#${pair.companyId}`);
      // A company's pair left to colleagues names none of them as the one erased: it is handed to one who is left.
      else if (colleague && companyPair?.openedBy === contactId) companyPair.openedBy = colleague.contactId;
      if (issue) {
        const taken = { contacts: pair.inCrm ? -1 : 0, notInCrm: pair.inCrm ? 0 : -1, companies: companyLeft ? -1 : 0 };
        this.issues.set(issueKey, { ...issue, affected: addAffected(issue.affected, taken) });
      }
    }
    return forgotten;
  }

  async issuesOfHashes(factoryId: string, hashes: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (const hash of hashes) {
      const issueId = this.aliases.get(`${factoryId}#${hash}`);
      if (issueId !== undefined) found.set(hash, issueId);
    }
    return found;
  }

  async tieHashes(factoryId: string, ties: ReadonlyMap<string, string>): Promise<Map<string, string>> {
    const settled = new Map<string, string>();
    for (const [hash, issueId] of ties) {
      const key = `${factoryId}#${hash}`;
      if (!this.aliases.has(key)) this.aliases.set(key, issueId);
      settled.set(hash, this.aliases.get(key) as string);
    }
    return settled;
  }

  async addFiltered(shardKey: string, events: readonly FilteredEvent[]): Promise<void> {
    const first = events[0];
    if (!first) return;
    const delta = filteredDeltas(this.uncounted(`filtered#${first.event.factoryId}`, shardKey, events))[0];
    if (!delta) return;
    const counts = { ...this.filtered.get(delta.factoryId)?.counts };
    for (const [reason, n] of Object.entries(delta.counts) as [keyof typeof counts, number][]) counts[reason] = (counts[reason] ?? 0) + n;
    this.filtered.set(delta.factoryId, { factoryId: delta.factoryId, counts, lastSeen: delta.lastSeenAt });
  }

  async addSetAside(shardKey: string, records: readonly SetAsideRecord[]): Promise<void> {
    const first = records[0];
    if (!first) return;
    const fresh = this.uncounted(`aside#${first.factoryId}`, shardKey, records);
    const last = fresh[fresh.length - 1];
    if (!last) return;
    const counts = { ...this.setAside.get(first.factoryId)?.counts };
    for (const { reason } of fresh) counts[reason] = (counts[reason] ?? 0) + 1;
    const { eventId, reason, detail } = last;
    this.setAside.set(first.factoryId, {
      factoryId: first.factoryId,
      counts,
      last: { eventId, reason, ...(detail === undefined ? {} : { detail }), at: new Date().toISOString() },
    });
  }

  /** The records after the item's mark for the shard, the mark moved past them. */
  private uncounted<T extends { seq: string }>(key: string, shardKey: string, events: readonly T[]): T[] {
    const markKey = `${key}@${shardKey}`;
    const mark = this.marks.get(markKey);
    const fresh = events.filter((event) => mark === undefined || event.seq > mark);
    const last = fresh[fresh.length - 1];
    if (last) this.marks.set(markKey, last.seq);
    return fresh;
  }

  async putFeatureRequest(request: StoredFeatureRequest): Promise<{ created: boolean; stored: StoredFeatureRequest }> {
    const id = `${request.factoryId}#${request.requestId}`;
    const existing = this.featureRequests.get(id);
    if (existing) return { created: existing.writeToken === request.writeToken, stored: existing };
    this.featureRequests.set(id, request);
    return { created: true, stored: request };
  }

  async listIssues(factoryId: string, query: { status?: IssueStatus; limit: number; nowMs: number; after?: ListPosition }): Promise<Issue[]> {
    const { after } = query;
    return [...this.issues.values()]
      .filter((issue) => issue.factoryId === factoryId && !isExpired(issue, Math.floor(query.nowMs / 1000)))
      .filter((issue) => query.status === undefined || issue.status === query.status)
      .filter((issue) => after === undefined || byLastSeen({ lastSeen: String(after.value), issueId: after.issueId }, issue) < 0)
      .sort(byLastSeen)
      .slice(0, query.limit)
      .map((issue) => issueAsOf(issue, query.nowMs));
  }

  async getIssue(factoryId: string, issueId: string, nowMs: number): Promise<Issue | undefined> {
    const issue = this.issues.get(`${factoryId}#${issueId}`);
    return issue && !isExpired(issue, Math.floor(nowMs / 1000)) ? issueAsOf(issue, nowMs) : undefined;
  }

  async issueEvents(factoryId: string, issueId: string, limit: number, nowMs: number): Promise<EventView[]> {
    return [...this.events.values()]
      .filter(
        (event) =>
          event.factoryId === factoryId &&
          (this.countedIn.get(`${factoryId}#${event.eventId}`) ?? event.issueId) === issueId &&
          event.expiresAt > Math.floor(nowMs / 1000),
      )
      .sort(newestEventFirst)
      .slice(0, limit)
      .map(({ writeToken: _writeToken, expiresAt: _expiresAt, ...view }) => view);
  }

  async setIssueStatus(
    factoryId: string,
    issueId: string,
    change: { status: IssueStatus; at: string; by: string; nowMs: number },
  ): Promise<StatusChange | undefined> {
    const issue = await this.getIssue(factoryId, issueId, change.nowMs);
    if (!issue) return undefined;
    const changed = changeStatus(issue, change.status, change.at, change.by);
    this.issues.set(`${factoryId}#${issueId}`, changed);
    return { issue: changed, previous: issue.status };
  }

  async filteredCounts(factoryId: string): Promise<FilteredCounts> {
    return this.filtered.get(factoryId) ?? { factoryId, counts: {} };
  }

  async setAsideCounts(factoryId: string): Promise<SetAsideCounts> {
    return this.setAside.get(factoryId) ?? { factoryId, counts: {} };
  }
}

/** A pair as a page lists its person. */
function personOf(pair: MemoryPair): AffectedPerson {
  const { contactId, events, firstSeen, lastSeen, inCrm, companyId } = pair;
  return { contactId, events, firstSeen, lastSeen, inCrm, ...(companyId === undefined ? {} : { companyId }) };
}
