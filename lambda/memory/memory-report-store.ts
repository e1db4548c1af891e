import { applyDelta, byLastSeen, changeStatus, filteredDelta, issueDeltas, isExpired, type EventToStore, type FilteredCounts, type Issue, type IssueStatus } from '../ingest/issues';
import type { EventView, IssueStore, ReportStore, StatusChange, StoredEvent, StoredFeatureRequest } from '../ingest/ports';

/**
 * ReportStore and IssueStore in memory: one record per factory and
 * eventId/requestId, the first write wins; issues kept by the rules of
 * lambda/ingest/issues.ts as written. One call runs to its end before
 * another starts, which is what the DynamoDB store's transaction gives.
 */
export class MemoryReportStore implements ReportStore, IssueStore {
  readonly events = new Map<string, StoredEvent>();
  readonly featureRequests = new Map<string, StoredFeatureRequest>();
  readonly issues = new Map<string, Issue>();
  readonly filtered = new Map<string, FilteredCounts>();

  async putEvents(events: readonly EventToStore[]): Promise<('stored' | 'duplicate')[]> {
    const stored: EventToStore[] = [];
    const outcomes = events.map((item): 'stored' | 'duplicate' => {
      const id = `${item.event.factoryId}#${item.event.eventId}`;
      const existing = this.events.get(id);
      // Our own earlier write: stored (and counted) then.
      if (existing) return existing.writeToken === item.event.writeToken ? 'stored' : 'duplicate';
      this.events.set(id, item.event);
      stored.push(item);
      return 'stored';
    });
    for (const delta of issueDeltas(stored)) {
      const key = `${delta.factoryId}#${delta.issueId}`;
      this.issues.set(key, applyDelta(this.issues.get(key), delta).issue);
    }
    const filtered = filteredDelta(stored);
    if (filtered) {
      const counts = this.filtered.get(filtered.factoryId)?.counts ?? {};
      for (const [reason, count] of Object.entries(filtered.counts) as [keyof typeof counts, number][]) counts[reason] = (counts[reason] ?? 0) + count;
      this.filtered.set(filtered.factoryId, { factoryId: filtered.factoryId, counts, lastSeen: filtered.seenAt });
    }
    return outcomes;
  }

  async putFeatureRequest(request: StoredFeatureRequest): Promise<{ created: boolean; stored: StoredFeatureRequest }> {
    const id = `${request.factoryId}#${request.requestId}`;
    const existing = this.featureRequests.get(id);
    if (existing) return { created: existing.writeToken === request.writeToken, stored: existing };
    this.featureRequests.set(id, request);
    return { created: true, stored: request };
  }

  async listIssues(factoryId: string, query: { status?: IssueStatus; limit: number; nowMs: number }): Promise<Issue[]> {
    return [...this.issues.values()]
      .filter((issue) => issue.factoryId === factoryId && !isExpired(issue, Math.floor(query.nowMs / 1000)))
      .filter((issue) => query.status === undefined || issue.status === query.status)
      .sort(byLastSeen)
      .slice(0, query.limit);
  }

  async getIssue(factoryId: string, issueId: string, nowMs: number): Promise<Issue | undefined> {
    const issue = this.issues.get(`${factoryId}#${issueId}`);
    return issue && !isExpired(issue, Math.floor(nowMs / 1000)) ? issue : undefined;
  }

  async issueEvents(factoryId: string, issueId: string, limit: number, nowMs: number): Promise<EventView[]> {
    return [...this.events.values()]
      .filter((event) => event.factoryId === factoryId && event.issueId === issueId && event.expiresAt > Math.floor(nowMs / 1000))
      .sort((a, b) => (a.receivedAt < b.receivedAt ? 1 : a.receivedAt > b.receivedAt ? -1 : 0))
      .slice(0, limit)
      .map(({ writeToken: _writeToken, expiresAt: _expiresAt, ...view }) => view);
  }

  async setIssueStatus(factoryId: string, issueId: string, change: { status: IssueStatus; at: string; by: string; nowMs: number }): Promise<StatusChange | undefined> {
    const issue = await this.getIssue(factoryId, issueId, change.nowMs);
    if (!issue) return undefined;
    const changed = changeStatus(issue, change.status, change.at, change.by);
    this.issues.set(`${factoryId}#${issueId}`, changed);
    return { issue: changed, previous: issue.status };
  }

  async filteredCounts(factoryId: string): Promise<FilteredCounts> {
    return this.filtered.get(factoryId) ?? { factoryId, counts: {} };
  }
}
