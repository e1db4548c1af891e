import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { peopleBusiestFirst, type AffectedEraser, type AffectedPerson, type AffectedReader, type Bounded, type CrmLink } from '../../../ingest/issues/affected';
import { countExactlyOnce, markOf, staleMarks, type FoundItem } from '../../../ingest/tally/exactly-once';
import type { StoredEvent } from '../../../ingest/issues/stored-event';
import type { IssueEvent, PersonEvents, PersonPair, ReportersNow } from '../../../ingest/tally/ports';
import { batchGet } from '../batch-get';
import { isConditionalCheckFailed, storageCall } from '../errors';
import { applyDelta, conditionalUpdate, markedAt, notCountedYet, type CounterDelta } from './counting-writes';
import { Expression, QueryExpression } from '../expression';
import {
  COMPANY_PAIR_PREFIX,
  CONTACTS_KEY,
  eventKey,
  EXPIRES_AT,
  PERSON_PAIR_PREFIX,
  PERSON_ATTRIBUTE,
  REPORTS_BY_FEED,
  REPORTS_BY_PERSON,
  REPORTS_KEY,
} from '../schema';
import { writeAffected } from './issue-affected';
import { issueKey } from './issue-items';

type Item = Record<string, unknown>;

/**
 * Who an issue affects, in the reports table (docs/report-issues.md#who-is-affected):
 *   person pair   pk = "affected#" + factoryId + "#" + issueId + "#" + contactId: the person's events in the issue
 *                 (ADD, exactly once by marks per shard, as issue items), first and last seen, the event that opened
 *                 it (`openedBy`) and what the CRM said of the person then (`inCrm`, `companyId`). Listed per issue
 *                 in byFeed (feed = factoryId + "#affected#" + issueId, sort key its first seen, written once) and
 *                 per contact in byPerson (person = the contact id, which no person key can be).
 *   company pair  pk = "affco#" + factoryId + "#" + issueId + "#" + companyId: the contact that opened it; listed per
 *                 company in byFeed (feed = factoryId + "#company-issues#" + companyId).
 * A person's pair is written once per batch that names them (never per event); a new pair costs one GetItem of the
 * contact and, when they have a company, one UpdateItem of the company's pair. Both expire with their events. After
 * the writes, one consistent BatchGetItem of the batch's events that name someone (reportersNow) tells which still do;
 * a pair none of them names is taken back (withdraw: lambda/ingest/tally/count-people.ts says why this order).
 */
const personPairKey = (factoryId: string, issueId: string, contactId: string): string => `${PERSON_PAIR_PREFIX}${factoryId}#${issueId}#${contactId}`;
const companyPairKey = (factoryId: string, issueId: string, companyId: string): string => `${COMPANY_PAIR_PREFIX}${factoryId}#${issueId}#${companyId}`;
export const issuePeopleFeed = (factoryId: string, issueId: string): string => `${factoryId}#affected#${issueId}`;
export const companyIssuesFeed = (factoryId: string, companyId: string): string => `${factoryId}#company-issues#${companyId}`;
const PERSON_PAIR_TYPE = 'affected-person';
/**
 * A pair's mark of a shard is an attribute of its own (`mark_` + the shard's key), not a map's entry as on an issue:
 * the pair's first write is an UpdateItem, which cannot set an entry of a map it creates. Marks too old to matter
 * are removed after a write that finds them.
 */
const MARK_PREFIX = 'mark_';
const markAttribute = (shardKey: string): string => `${MARK_PREFIX}${shardKey}`;
const COMPANY_PAIR_TYPE = 'affected-company';
/** Entries of an index read at once. */
const QUERY_PAGE = 100;

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A person pair as a page lists it; undefined for an item that is not one, or expired. */
function personOf(item: Item, nowMs: number): (AffectedPerson & { issueId: string }) | undefined {
  const contactId = text(item.contactId);
  const issueId = text(item.issue);
  const firstSeen = text(item.firstSeen);
  const lastSeen = text(item.lastSeen);
  if (!contactId || !issueId || !firstSeen || !lastSeen) return undefined;
  if (typeof item[EXPIRES_AT] === 'number' && item[EXPIRES_AT] <= nowMs / 1000) return undefined;
  const companyId = text(item.companyId);
  return {
    issueId,
    contactId,
    events: typeof item.events === 'number' ? item.events : 0,
    firstSeen,
    lastSeen,
    inCrm: item.inCrm === true,
    ...(companyId === undefined ? {} : { companyId }),
  };
}

/** What counting these events (of one batch, in stream order) writes on their pair, beside the shard's mark. */
function pairDelta(batch: PersonEvents, pending: readonly IssueEvent[]): CounterDelta {
  const times = pending.map((item) => item.event.receivedAt).sort();
  return {
    add: { events: pending.length },
    set: {
      factoryId: batch.factoryId,
      issue: batch.issueId,
      contactId: batch.contactId,
      [PERSON_ATTRIBUTE]: batch.contactId,
      type: PERSON_PAIR_TYPE,
      [REPORTS_BY_FEED.partitionKey]: issuePeopleFeed(batch.factoryId, batch.issueId),
      lastSeen: times[times.length - 1],
      [EXPIRES_AT]: Math.max(...pending.map((item) => item.event.expiresAt)),
    },
    setOnce: { [REPORTS_BY_FEED.sortKey]: times[0], firstSeen: times[0], openedBy: (pending[0] as IssueEvent).event.eventId },
  };
}

export class DynamoAffectedPairs implements AffectedReader, AffectedEraser {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tables: { reports: string; contacts?: string },
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The events of one person in one issue counted into their pair, exactly once: the count is conditional on the
   * shard's mark being before the first event; a refusal returns the pair, whose mark says which events are left.
   * A pair the CRM was not yet asked about (a new one, or one whose first write's batch stopped there) reads the
   * contact once; the batch holding the event that opened the pair writes the company's pair.
   */
  async add(shardKey: string, batch: PersonEvents): Promise<PersonPair> {
    let pair = await this.count(shardKey, batch);
    if (pair.inCrm === undefined) pair = await this.link(batch, await this.crmOf(batch.factoryId, batch.contactId));
    const openedBy = text(pair.openedBy) ?? '';
    const companyId = text(pair.companyId);
    const opener = batch.events.find((item) => item.event.eventId === openedBy);
    const opensCompany = companyId !== undefined && opener !== undefined && (await this.openCompany(batch, companyId, opener)) === batch.contactId;
    const events = typeof pair.events === 'number' ? pair.events : 0;
    return { openedBy, inCrm: pair.inCrm === true, ...(companyId === undefined ? {} : { companyId }), opensCompany, events };
  }

  /**
   * One BatchGetItem per 100 events, consistent: an eventually consistent read could miss an erasure's strip that
   * came before it, and the check's argument (lambda/ingest/tally/count-people.ts) rests on the read's order.
   */
  async reportersNow(events: readonly StoredEvent[]): Promise<ReportersNow> {
    const keys = [...new Set(events.map((event) => eventKey(event.factoryId, event.eventId)))];
    const items = await batchGet(
      this.doc,
      this.tables.reports,
      keys.map((pk) => ({ [REPORTS_KEY.partitionKey]: pk })),
      { operation: 'BatchGetItem (reporters now)', consistentRead: true },
    );
    const byKey = new Map(items.map((item) => [String(item[REPORTS_KEY.partitionKey]), item]));
    return events.map((event) => {
      const item = byKey.get(eventKey(event.factoryId, event.eventId));
      if (!item) return undefined;
      // Only the email matters to who the event names (contactOfEvent); the item's other fields stay unread.
      const reporter = item.reporter;
      const email = typeof reporter === 'object' && reporter !== null ? (reporter as { email?: unknown }).email : undefined;
      return typeof email === 'string' ? { reporter: { email } } : {};
    });
  }

  /**
   * Takes back a pair the batch wrote for a person its events no longer name (lambda/ingest/tally/count-people.ts):
   * deleted while it is still the person's and counts what the batch's write left (a write since, by another shard,
   * has its own check, which decides then); with it, the company's pair when this person opened it. The issue's
   * counts are left as they are: they may keep a number, never the person.
   */
  async withdraw(batch: PersonEvents, pair: PersonPair, heir?: string): Promise<void> {
    const person = new Expression();
    person.when(person.is('contactId', '=', batch.contactId), person.is('events', '=', pair.events));
    const removed = await this.conditionally('DeleteItem (person pair, withdrawn)', () =>
      this.doc.send(
        new DeleteCommand({
          TableName: this.tables.reports,
          Key: { [REPORTS_KEY.partitionKey]: personPairKey(batch.factoryId, batch.issueId, batch.contactId) },
          ...person.forCondition(),
        }),
      ),
    );
    if (!removed || pair.companyId === undefined) return;
    const Key = { [REPORTS_KEY.partitionKey]: companyPairKey(batch.factoryId, batch.issueId, pair.companyId) };
    const company = new Expression();
    if (heir !== undefined) company.set('openedBy', heir);
    company.when(company.is('openedBy', '=', batch.contactId));
    await this.conditionally(heir === undefined ? 'DeleteItem (company pair, withdrawn)' : 'UpdateItem (company pair, handed over)', () =>
      heir === undefined
        ? this.doc.send(new DeleteCommand({ TableName: this.tables.reports, Key, ...company.forCondition() }))
        : this.doc.send(new UpdateCommand({ TableName: this.tables.reports, Key, ...company.forUpdate() })),
    );
  }

  /** A conditional write: answers whether it landed (false when its condition did not hold). */
  private async conditionally(operation: string, write: () => Promise<unknown>): Promise<boolean> {
    try {
      await storageCall(operation, write);
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
  }

  /**
   * The pair after counting the batch's events into it by the tally's protocol (countExactlyOnce) and its shared
   * counting write (counting-writes.ts), as a release counter is: every round the same UpdateItem (it opens the pair
   * too), conditional on this shard's mark being before the first event still to count. When every event was counted
   * already (the batch delivered again, or cut elsewhere), the pair as it is.
   */
  private async count(shardKey: string, batch: PersonEvents): Promise<Item> {
    const markName = markAttribute(shardKey);
    const operation = 'UpdateItem (person pair)';
    const key = personPairKey(batch.factoryId, batch.issueId, batch.contactId);
    const target = { doc: this.doc, tableName: this.tables.reports, key, operation, foundOf: (item: Item) => markedAt(item, markName) };
    let pair: Item | undefined;
    await countExactlyOnce<IssueEvent, FoundItem>(batch.events, {
      operation,
      believed: 'active',
      // A pair's state does not depend on the time: its expiry is DynamoDB's time to live, as a counter's.
      nowSeconds: () => 0,
      write: async ({ pending }) => {
        const first = pending[0] as IssueEvent;
        const last = pending[pending.length - 1] as IssueEvent;
        const update = applyDelta(new Expression(), pairDelta(batch, pending));
        update.set(markName, markOf(last.seq, this.now()));
        update.when(notCountedYet(update, markName, first.seq));
        const outcome = await conditionalUpdate(target, update);
        if (outcome.landed) pair = outcome.item;
        return outcome;
      },
    });
    if (!pair) return this.read(batch);
    await this.pruneMarks(pair);
    return pair;
  }

  /** Removes the marks of shards that can send nothing again (a second write, once a shard has been closed a day). */
  private async pruneMarks(pair: Item): Promise<void> {
    const marks = Object.fromEntries(Object.entries(pair).filter(([name]) => name.startsWith(MARK_PREFIX)));
    const stale = staleMarks(marks, this.now());
    if (stale.length === 0 || typeof pair.pk !== 'string') return;
    const update = new Expression();
    for (const name of stale) update.remove(name);
    await storageCall('UpdateItem (person pair, old marks)', () =>
      this.doc.send(new UpdateCommand({ TableName: this.tables.reports, Key: { [REPORTS_KEY.partitionKey]: pair.pk }, ...update.forUpdate() })),
    );
  }

  private async read(batch: PersonEvents): Promise<Item> {
    const result = await storageCall('GetItem (person pair)', () =>
      this.doc.send(
        new GetCommand({
          TableName: this.tables.reports,
          Key: { [REPORTS_KEY.partitionKey]: personPairKey(batch.factoryId, batch.issueId, batch.contactId) },
          ConsistentRead: true,
        }),
      ),
    );
    return result.Item ?? {};
  }

  /** What the CRM says of the person: one GetItem of the contact (none when the tally has no contacts table: not a contact). */
  private async crmOf(factoryId: string, contactId: string): Promise<CrmLink> {
    const table = this.tables.contacts;
    if (table === undefined) return { inCrm: false };
    const result = await storageCall('GetItem (contact of a person)', () =>
      this.doc.send(
        new GetCommand({
          TableName: table,
          Key: { [CONTACTS_KEY.partitionKey]: factoryId, [CONTACTS_KEY.sortKey]: contactId },
          ProjectionExpression: 'companyId',
        }),
      ),
    );
    if (!result.Item) return { inCrm: false };
    const companyId = text(result.Item.companyId);
    return { inCrm: true, ...(companyId === undefined ? {} : { companyId }) };
  }

  /** The CRM's answer kept on the pair, once: a pair two shards linked at once keeps the first answer. */
  private async link(batch: PersonEvents, link: CrmLink): Promise<Item> {
    const update = new Expression().setOnce('inCrm', link.inCrm);
    if (link.companyId !== undefined) update.setOnce('companyId', link.companyId);
    update.when(update.exists(REPORTS_KEY.partitionKey));
    const result = await storageCall('UpdateItem (person pair, CRM link)', () =>
      this.doc.send(
        new UpdateCommand({
          TableName: this.tables.reports,
          Key: { [REPORTS_KEY.partitionKey]: personPairKey(batch.factoryId, batch.issueId, batch.contactId) },
          ...update.forUpdate(),
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return result.Attributes ?? {};
  }

  /** The company's pair in the issue, opened by this person unless another was first: answers the contact that opened it. */
  private async openCompany(batch: PersonEvents, companyId: string, opener: IssueEvent): Promise<string | undefined> {
    const update = new Expression()
      .set('factoryId', batch.factoryId)
      .set('issue', batch.issueId)
      .set('companyId', companyId)
      .set('type', COMPANY_PAIR_TYPE)
      .set(REPORTS_BY_FEED.partitionKey, companyIssuesFeed(batch.factoryId, companyId))
      .setOnce(REPORTS_BY_FEED.sortKey, opener.event.receivedAt)
      .setOnce('openedBy', batch.contactId)
      .set(EXPIRES_AT, opener.event.expiresAt);
    const result = await storageCall('UpdateItem (company pair)', () =>
      this.doc.send(
        new UpdateCommand({
          TableName: this.tables.reports,
          Key: { [REPORTS_KEY.partitionKey]: companyPairKey(batch.factoryId, batch.issueId, companyId) },
          ...update.forUpdate(),
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return text(result.Attributes?.openedBy);
  }

  /** The table keys of one index partition, newest first, at most `limit` + 1 (to tell whether that was all). */
  private async keysOf(index: { indexName: string; partitionKey: string }, value: string, limit: number, prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let start: Item | undefined;
    do {
      const query = new QueryExpression();
      query.key(query.is(index.partitionKey, '=', value));
      const result = await storageCall(`Query (${index.indexName}, affected)`, () =>
        this.doc.send(
          new QueryCommand({
            TableName: this.tables.reports,
            IndexName: index.indexName,
            ...query.forQuery(),
            ScanIndexForward: false,
            Limit: QUERY_PAGE,
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
        ),
      );
      for (const item of result.Items ?? []) if (String(item.pk).startsWith(prefix)) keys.push(String(item.pk));
      start = result.LastEvaluatedKey;
    } while (start && keys.length <= limit);
    return keys.slice(0, limit + 1);
  }

  private async items(keys: readonly string[], operation: string): Promise<Item[]> {
    return batchGet(
      this.doc,
      this.tables.reports,
      keys.map((pk) => ({ [REPORTS_KEY.partitionKey]: pk })),
      { operation },
    );
  }

  async peopleOf(factoryId: string, issueId: string, limit: number, nowMs: number): Promise<Bounded<AffectedPerson>> {
    const keys = await this.keysOf(REPORTS_BY_FEED, issuePeopleFeed(factoryId, issueId), limit, `affected#${factoryId}#${issueId}#`);
    const people = (await this.items(keys.slice(0, limit), "BatchGetItem (an issue's people)"))
      .map((item) => personOf(item, nowMs))
      .filter((person) => person !== undefined)
      .map(({ issueId: _issueId, ...person }) => person);
    return { items: people.sort(peopleBusiestFirst), complete: keys.length <= limit };
  }

  async issuesOfContact(factoryId: string, contactId: string, limit: number, nowMs: number): Promise<Bounded<AffectedPerson & { issueId: string }>> {
    const keys = await this.keysOf(REPORTS_BY_PERSON, contactId, limit, `affected#${factoryId}#`);
    const issues = (await this.items(keys.slice(0, limit), "BatchGetItem (a contact's issues)"))
      .map((item) => personOf(item, nowMs))
      .filter((person) => person !== undefined);
    return { items: issues, complete: keys.length <= limit };
  }

  async issuesOfCompany(factoryId: string, companyId: string, limit: number, nowMs: number): Promise<Bounded<string>> {
    const keys = await this.keysOf(REPORTS_BY_FEED, companyIssuesFeed(factoryId, companyId), limit, `affco#${factoryId}#`);
    const items = await this.items(keys.slice(0, limit), "BatchGetItem (a company's issues)");
    const issueIds = items
      .filter((item) => !(typeof item[EXPIRES_AT] === 'number' && item[EXPIRES_AT] <= nowMs / 1000))
      .map((item) => text(item.issue))
      .filter((issueId) => issueId !== undefined);
    return { items: issueIds, complete: keys.length <= limit };
  }

  /**
   * Every pair of the person deleted (found by their contact id in byPerson); each one this call deleted takes the
   * person out of its issue's counts, and, when no one else of their company is left in the issue, the company too.
   */
  async forgetPerson(factoryId: string, contactId: string, nowMs: number): Promise<string[]> {
    const keys = await this.keysOf(REPORTS_BY_PERSON, contactId, Number.MAX_SAFE_INTEGER, `affected#${factoryId}#`);
    const forgotten: string[] = [];
    for (const pk of keys) {
      const deleted = await storageCall('DeleteItem (person pair, erasure)', () =>
        this.doc.send(new DeleteCommand({ TableName: this.tables.reports, Key: { [REPORTS_KEY.partitionKey]: pk }, ReturnValues: 'ALL_OLD' })),
      );
      const old = deleted.Attributes;
      const issueId = text(old?.issue);
      if (!old || !issueId) continue;
      forgotten.push(issueId);
      const companyId = text(old.companyId);
      const companyLeft = companyId !== undefined && (await this.companyLeaves(factoryId, issueId, companyId, contactId, nowMs));
      const update = new Expression();
      writeAffected(update, { contacts: old.inCrm === true ? -1 : 0, notInCrm: old.inCrm === true ? 0 : -1, companies: companyLeft ? -1 : 0 });
      update.when(update.exists(REPORTS_KEY.partitionKey));
      try {
        await storageCall('UpdateItem (issue, erasure)', () =>
          this.doc.send(
            new UpdateCommand({ TableName: this.tables.reports, Key: { [REPORTS_KEY.partitionKey]: issueKey(factoryId, issueId) }, ...update.forUpdate() }),
          ),
        );
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error; // the issue is gone: nothing to take down
      }
    }
    return forgotten;
  }

  /**
   * Whether nobody else of the company is left in the issue; if so, its pair deleted: answers whether this call
   * deleted it. Otherwise a pair this person opened is handed to one of those left, so that it names no erased person.
   */
  private async companyLeaves(factoryId: string, issueId: string, companyId: string, contactId: string, nowMs: number): Promise<boolean> {
    const keys = await this.keysOf(REPORTS_BY_FEED, issuePeopleFeed(factoryId, issueId), Number.MAX_SAFE_INTEGER, `affected#${factoryId}#${issueId}#`);
    const people = await this.items(keys, "BatchGetItem (an issue's people, erasure)");
    const left = people.find((item) => text(item.companyId) === companyId && text(item.contactId) !== contactId && personOf(item, nowMs) !== undefined);
    if (left) {
      const handover = new Expression().set('openedBy', text(left.contactId));
      handover.when(handover.is('openedBy', '=', contactId));
      await this.conditionally('UpdateItem (company pair, handed over)', () =>
        this.doc.send(
          new UpdateCommand({
            TableName: this.tables.reports,
            Key: { [REPORTS_KEY.partitionKey]: companyPairKey(factoryId, issueId, companyId) },
            ...handover.forUpdate(),
          }),
        ),
      );
      return false;
    }
    const deleted = await storageCall('DeleteItem (company pair, erasure)', () =>
      this.doc.send(
        new DeleteCommand({
          TableName: this.tables.reports,
          Key: { [REPORTS_KEY.partitionKey]: companyPairKey(factoryId, issueId, companyId) },
          ReturnValues: 'ALL_OLD',
        }),
      ),
    );
    return deleted.Attributes !== undefined;
  }
}
