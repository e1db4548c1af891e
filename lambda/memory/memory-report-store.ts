import type { ReportStore, StoredEvent, StoredFeatureRequest } from '../ingest/ports';

/** ReportStore in memory: one record per factory and eventId/requestId, the first write wins. */
export class MemoryReportStore implements ReportStore {
  readonly events = new Map<string, StoredEvent>();
  readonly featureRequests = new Map<string, StoredFeatureRequest>();

  async putEvent(event: StoredEvent): Promise<'stored' | 'duplicate'> {
    const id = `${event.factoryId}#${event.eventId}`;
    const existing = this.events.get(id);
    if (existing) return existing.writeToken === event.writeToken ? 'stored' : 'duplicate';
    this.events.set(id, event);
    return 'stored';
  }

  async putFeatureRequest(request: StoredFeatureRequest): Promise<{ created: boolean; stored: StoredFeatureRequest }> {
    const id = `${request.factoryId}#${request.requestId}`;
    const existing = this.featureRequests.get(id);
    if (existing) return { created: existing.writeToken === request.writeToken, stored: existing };
    this.featureRequests.set(id, request);
    return { created: true, stored: request };
  }
}
