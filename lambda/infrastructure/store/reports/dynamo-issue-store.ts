import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  byLastSeen,
  changeStatus,
  issueAsOf,
  ISSUE_STATUSES,
  type FilteredCounts,
  type Issue,
  type IssueStatus,
  type IssueStore,
  type SetAsideCounts,
  type StatusChange,
} from '../../../ingest/issues/issue';
import type { ListPosition } from '../../../ingest/issues/issue';
import type { EventView } from '../../../ingest/issues/stored-event';
import { Expression } from '../expression';
import { isConditionalCheckFailed, storageCall } from '../errors';
import { eventViewOf } from './event-items';
import { filteredKey, issueFeedOf, issueKey, itemToFilteredCounts, itemToIssue, itemToSetAsideCounts, setAsideKey } from './issue-items';
import { newestItems } from './newest-first';
import { REPORTS_BY_FEED, REPORTS_BY_ISSUE } from '../schema';
import { DynamoIssueAliases } from './issue-aliases';
import { DynamoAffectedPairs } from './affected-items';
import type { AffectedPerson, Bounded } from '../../../ingest/issues/affected';

/** Items read at most: the list's length, BatchGetItem's most at once. */
const chunkFor = (limit: number): number => Math.max(1, Math.min(100, limit));

/**
 * Issues in the reports table, for the control room (key layout in
 * ./issue-items.ts), read through the one newest-first path
 * (newest-first.ts). Listing is bounded: per status, the byFeed partition of
 * that status, newest last seen first, for at most `limit` issues; all
 * statuses merge three such lists. An issue's events: its feed pages in the
 * byIssue index, then the events they list.
 */
export class DynamoIssueStore implements IssueStore {
  private readonly aliases: DynamoIssueAliases;
  private readonly affected: DynamoAffectedPairs;

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    this.aliases = new DynamoIssueAliases(doc, tableName);
    this.affected = new DynamoAffectedPairs(doc, { reports: tableName });
  }

  peopleOf(factoryId: string, issueId: string, limit: number, nowMs: number): Promise<Bounded<AffectedPerson>> {
    return this.affected.peopleOf(factoryId, issueId, limit, nowMs);
  }

  issuesOfContact(factoryId: string, contactId: string, limit: number, nowMs: number): Promise<Bounded<AffectedPerson & { issueId: string }>> {
    return this.affected.issuesOfContact(factoryId, contactId, limit, nowMs);
  }

  issuesOfCompany(factoryId: string, companyId: string, limit: number, nowMs: number): Promise<Bounded<string>> {
    return this.affected.issuesOfCompany(factoryId, companyId, limit, nowMs);
  }

  forgetPerson(factoryId: string, contactId: string, nowMs: number): Promise<string[]> {
    return this.affected.forgetPerson(factoryId, contactId, nowMs);
  }

  /** Read only (one BatchGetItem): the tally alone ties. */
  issuesOfHashes(factoryId: string, keys: readonly string[]): Promise<Map<string, string>> {
    return this.aliases.issuesOfHashes(factoryId, keys);
  }

  async listIssues(factoryId: string, query: { status?: IssueStatus; limit: number; nowMs: number; after?: ListPosition }): Promise<Issue[]> {
    const statuses = query.status ? [query.status] : ISSUE_STATUSES;
    // The index's position: its sort key (last seen) and the item's key, which orders as the issue id does.
    const after = query.after ? { receivedAt: String(query.after.value), pk: issueKey(factoryId, query.after.issueId) } : undefined;
    const lists = await Promise.all(
      statuses.map(async (status) => {
        const issues: Issue[] = [];
        const reading = newestItems(
          this.doc,
          this.tableName,
          { ...REPORTS_BY_FEED, value: issueFeedOf(factoryId, status) },
          { nowMs: query.nowMs, chunk: chunkFor(query.limit), ...(after ? { after } : {}) },
        );
        for await (const { item } of reading) {
          const issue = itemToIssue(item);
          if (issue.factoryId === factoryId) issues.push(issueAsOf(issue, query.nowMs));
          if (issues.length >= query.limit) break;
        }
        return issues;
      }),
    );
    return lists.flat().sort(byLastSeen).slice(0, query.limit);
  }

  async getIssue(factoryId: string, issueId: string, nowMs: number): Promise<Issue | undefined> {
    const found = await storageCall('GetItem (issue)', () =>
      this.doc.send(new GetCommand({ TableName: this.tableName, Key: { pk: issueKey(factoryId, issueId) }, ConsistentRead: true })),
    );
    if (!found.Item) return undefined;
    const issue = itemToIssue(found.Item);
    return issue.expiresAt > Math.floor(nowMs / 1000) ? issueAsOf(issue, nowMs) : undefined;
  }

  async issueEvents(factoryId: string, issueId: string, limit: number, nowMs: number): Promise<EventView[]> {
    const events: EventView[] = [];
    if (limit <= 0) return events;
    const reading = newestItems(this.doc, this.tableName, { ...REPORTS_BY_ISSUE, value: issueId }, { nowMs, chunk: chunkFor(limit) });
    for await (const { item } of reading) {
      const event = eventViewOf(item) as unknown as EventView;
      if (event.factoryId === factoryId) events.push(event);
      if (events.length >= limit) break;
    }
    return events;
  }

  /**
   * One UpdateItem, conditional on the issue existing and not being
   * expired; its status and its feed (the index partition of its status)
   * move together. ALL_OLD tells the status it had; the issue after is
   * that item with the attributes this write set.
   */
  async setIssueStatus(
    factoryId: string,
    issueId: string,
    change: { status: IssueStatus; at: string; by: string; nowMs: number },
  ): Promise<StatusChange | undefined> {
    const update = new Expression()
      .set('status', change.status)
      .set('feed', issueFeedOf(factoryId, change.status))
      .set('statusChangedAt', change.at)
      .set('statusChangedBy', change.by);
    update.when(update.exists('pk'), update.is('expiresAt', '>', Math.floor(change.nowMs / 1000)));
    try {
      const result = await storageCall('UpdateItem (issue status)', () =>
        this.doc.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: { pk: issueKey(factoryId, issueId) },
            ...update.forUpdate(),
            ReturnValues: 'ALL_OLD',
          }),
        ),
      );
      const before = issueAsOf(itemToIssue(result.Attributes ?? {}), change.nowMs);
      return { issue: changeStatus(before, change.status, change.at, change.by), previous: before.status };
    } catch (error) {
      if (isConditionalCheckFailed(error)) return undefined;
      throw error;
    }
  }

  async filteredCounts(factoryId: string): Promise<FilteredCounts> {
    const found = await storageCall('GetItem (filtered counts)', () =>
      this.doc.send(new GetCommand({ TableName: this.tableName, Key: { pk: filteredKey(factoryId) } })),
    );
    return itemToFilteredCounts(factoryId, found.Item);
  }

  async setAsideCounts(factoryId: string): Promise<SetAsideCounts> {
    const found = await storageCall('GetItem (set-aside counts)', () =>
      this.doc.send(new GetCommand({ TableName: this.tableName, Key: { pk: setAsideKey(factoryId) } })),
    );
    return itemToSetAsideCounts(factoryId, found.Item);
  }
}
