import { GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { byLastSeen, changeStatus, ISSUE_STATUSES, type EventView, type FilteredCounts, type Issue, type IssueStatus, type IssueStore, type StatusChange } from '../issues/issue';
import { Expression, QueryExpression } from './expression';
import { isConditionalCheckFailed, storageCall } from './errors';
import { filteredKey, issueFeedOf, issueKey, itemToFilteredCounts, itemToIssue } from './issue-items';
import { getInOrder } from './get-in-order';
import { REPORT_BOOKKEEPING, REPORTS_BY_FEED, REPORTS_BY_ISSUE } from './schema';

/** Index entries read per Query page: what BatchGetItem takes at once. */
const PAGE = 100;

/**
 * Issues in the reports table, for the control room (key layout in
 * ./issue-items.ts). Listing is bounded: per status, one Query of the
 * byFeed index (newest last-seen first, expired skipped in the index) for
 * at most `limit` keys, then BatchGetItem for the items; all statuses merge
 * three such lists. An issue's events: the byIssue index, the same way.
 */
export class DynamoIssueStore implements IssueStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async listIssues(factoryId: string, query: { status?: IssueStatus; limit: number; nowMs: number }): Promise<Issue[]> {
    const statuses = query.status ? [query.status] : ISSUE_STATUSES;
    const entries = await Promise.all(statuses.map((status) => this.newestKeys(REPORTS_BY_FEED.indexName, 'feed', issueFeedOf(factoryId, status), query.limit, query.nowMs)));
    const newest = entries
      .flat()
      .map((entry) => ({ ...entry, lastSeen: entry.receivedAt, issueId: entry.pk.slice(entry.pk.lastIndexOf('#') + 1) }))
      .sort(byLastSeen)
      .slice(0, query.limit);
    const items = await storageCall('BatchGetItem (issues)', () => getInOrder(this.doc, this.tableName, newest.map((entry) => entry.pk)));
    return items.map(itemToIssue).filter((issue) => issue.factoryId === factoryId && issue.expiresAt > Math.floor(query.nowMs / 1000));
  }

  async getIssue(factoryId: string, issueId: string, nowMs: number): Promise<Issue | undefined> {
    const found = await storageCall('GetItem (issue)', () =>
      this.doc.send(new GetCommand({ TableName: this.tableName, Key: { pk: issueKey(factoryId, issueId) }, ConsistentRead: true })),
    );
    if (!found.Item) return undefined;
    const issue = itemToIssue(found.Item);
    return issue.expiresAt > Math.floor(nowMs / 1000) ? issue : undefined;
  }

  async issueEvents(factoryId: string, issueId: string, limit: number, nowMs: number): Promise<EventView[]> {
    const keys = await this.newestKeys(REPORTS_BY_ISSUE.indexName, REPORTS_BY_ISSUE.partitionKey, issueId, limit, nowMs);
    const items = await storageCall('BatchGetItem (issue events)', () => getInOrder(this.doc, this.tableName, keys.map((entry) => entry.pk)));
    return items
      .filter((item) => item.factoryId === factoryId)
      .map((item) => {
        const event = { ...item };
        for (const name of REPORT_BOOKKEEPING) delete event[name];
        return event as EventView;
      });
  }

  /**
   * One UpdateItem, conditional on the issue existing and not being
   * expired; its status and its feed (the index partition of its status)
   * move together. ALL_OLD tells the status it had; the issue after is
   * that item with the attributes this write set.
   */
  async setIssueStatus(factoryId: string, issueId: string, change: { status: IssueStatus; at: string; by: string; nowMs: number }): Promise<StatusChange | undefined> {
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
      const before = itemToIssue(result.Attributes ?? {});
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

  /** The newest `limit` entries of one index partition that have not expired: keys and sort key only. */
  private async newestKeys(indexName: string, partitionKey: string, value: string, limit: number, nowMs: number) {
    const found: { pk: string; receivedAt: string }[] = [];
    let cursor: Record<string, unknown> | undefined;
    const query = new QueryExpression();
    query.key(query.is(partitionKey, '=', value)).filter(query.is('expiresAt', '>', Math.floor(nowMs / 1000)));
    const expressions = query.forQuery();
    do {
      const page = await storageCall(`Query (${indexName})`, () =>
        this.doc.send(
          new QueryCommand({
            TableName: this.tableName,
            IndexName: indexName,
            ...expressions,
            ScanIndexForward: false,
            Limit: Math.min(PAGE, Math.max(limit - found.length, 1)),
            ExclusiveStartKey: cursor,
          }),
        ),
      );
      for (const item of page.Items ?? []) found.push({ pk: String(item.pk), receivedAt: String(item.receivedAt) });
      cursor = page.LastEvaluatedKey;
    } while (cursor && found.length < limit);
    return found.slice(0, limit);
  }
}
