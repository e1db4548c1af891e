import type { Page, PersonReportRef, PersonStore, VendorRecords } from '../../control/ports';
import { InvalidCursorError } from '../../kernel/errors';
import type { PersonKeys } from '../../kernel/person-key';
import type { MemoryContactStore } from './memory-contact-store';
import type { MemoryEnrichmentStore } from './memory-enrichment-store';
import type { MemoryReportStore } from './memory-report-store';

interface Reported {
  factoryId: string;
  receivedAt: string;
  reporter?: { email?: string; name?: string };
  expiresAt: number;
  writeToken?: string;
}

const KIND_LABEL = { events: 'event', 'feature-requests': 'feature-request', feedback: 'feedback' } as const;

/**
 * PersonStore in memory, over the maps of the other memory stores: a
 * person's reports are those whose reporter's email has the person key
 * (computed as the ingest API's DynamoDB store writes it), newest first; the
 * erasure's deletes follow the DynamoDB adapter's conditions (the contact
 * only as read, a reporter only while the report still names the person).
 */
export class MemoryPersonStore implements PersonStore {
  constructor(
    private readonly contacts: MemoryContactStore,
    private readonly enrichment: MemoryEnrichmentStore,
    private readonly reports: MemoryReportStore,
    private readonly keys: PersonKeys,
    /** The vendor's records: a MemoryReferenceDataset. */
    readonly vendor: VendorRecords,
  ) {}

  personKey(factoryId: string, email: string): Promise<string> {
    return this.keys.keyOf(factoryId, email);
  }

  private map(kind: PersonReportRef['kind']): Map<string, Reported> {
    // The in-memory ingest keeps no feedback (it has no feedback store: feedback items are answered and dropped).
    if (kind === 'feedback') return new Map();
    return (kind === 'events' ? this.reports.events : this.reports.featureRequests) as Map<string, Reported>;
  }

  private async refsOf(factoryId: string, person: string): Promise<PersonReportRef[]> {
    const refs: PersonReportRef[] = [];
    for (const kind of ['events', 'feature-requests'] as const) {
      for (const [key, report] of this.map(kind)) {
        const email = report.reporter?.email;
        if (report.factoryId !== factoryId || !email || (await this.keys.keyOf(factoryId, email)) !== person) continue;
        refs.push({ kind, id: key.slice(factoryId.length + 1), receivedAt: report.receivedAt });
      }
    }
    const order = (ref: PersonReportRef) => `${ref.receivedAt}#${ref.kind}#${ref.id}`;
    return refs.sort((a, b) => (order(a) < order(b) ? 1 : -1));
  }

  async reportsOf(factoryId: string, person: string, cursor: string | undefined, limit: number): Promise<Page<PersonReportRef>> {
    const all = await this.refsOf(factoryId, person);
    let start = 0;
    if (cursor !== undefined) {
      const [f, p, position] = Buffer.from(cursor, 'base64url').toString('utf8').split('\n');
      if (f !== factoryId || p !== person || position === undefined)
        throw new InvalidCursorError("cursor is not one this service returned for this person's reports");
      start = all.findIndex((ref) => `${ref.receivedAt}#${ref.kind}#${ref.id}` < position);
      if (start < 0) start = all.length;
    }
    const items = all.slice(start, start + limit);
    const last = items[items.length - 1];
    const more = start + limit < all.length && last;
    return { items, ...(more ? { next: Buffer.from(`${factoryId}\n${person}\n${last.receivedAt}#${last.kind}#${last.id}`).toString('base64url') } : {}) };
  }

  async readReports(factoryId: string, refs: readonly PersonReportRef[], nowMs: number): Promise<Record<string, unknown>[]> {
    return refs.flatMap((ref) => {
      const report = this.map(ref.kind).get(`${factoryId}#${ref.id}`);
      if (!report || report.expiresAt <= Math.floor(nowMs / 1000)) return [];
      const { writeToken: _token, expiresAt: _expires, ...view } = structuredClone(report);
      return [{ kind: KIND_LABEL[ref.kind], ...view }];
    });
  }

  async forgetReporter(factoryId: string, ref: PersonReportRef, person: string): Promise<boolean> {
    const report = this.map(ref.kind).get(`${factoryId}#${ref.id}`);
    const email = report?.reporter?.email;
    if (!report || !email || (await this.keys.keyOf(factoryId, email)) !== person) return false;
    delete report.reporter;
    return true;
  }

  async deleteContact(factoryId: string, contactId: string, seenUpdatedAt: string): Promise<'deleted' | 'conflict'> {
    const key = `${factoryId}/${contactId}`;
    if (this.contacts.contacts.get(key)?.updatedAt !== seenUpdatedAt) return 'conflict';
    this.contacts.contacts.delete(key);
    return 'deleted';
  }

  async deletePassMarkers(factoryId: string, contactId: string, passIds: readonly string[]): Promise<void> {
    for (const passId of passIds) {
      for (const key of this.enrichment.passIds.keys()) {
        if (key.startsWith(`${factoryId}/${contactId}#`) && this.enrichment.passIds.get(key)?.passId === passId) this.enrichment.passIds.delete(key);
      }
    }
  }
}
