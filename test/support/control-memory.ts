import { handleControlRequest } from '../../lambda/control/handle-request';
import type { ControlDependencies, ControlStore } from '../../lambda/control/ports';
import { runClear } from '../../lambda/control/run-clear';
import type { ClearableField } from '../../lambda/contacts/domain/cleared';
import { upsertContact } from '../../lambda/contacts/domain/upsert-contact';
import { upsertBody } from '../../lambda/contacts/domain/upsert-input';
import type { Contact } from '../../lambda/contacts/domain/contact';
import type { StoredContact } from '../../lambda/contacts/enrichment/ports';
import type { EnrichmentContext } from '../../lambda/contacts/enrichment/run-pass';
import { EmailNameHeuristic } from '../../lambda/contacts/enrichment/sources/email-name-heuristic';
import { MemoryContactStore } from '../../lambda/infrastructure/memory/memory-contact-store';
import { MemoryControlStore } from '../../lambda/infrastructure/memory/memory-control-store';
import { MemoryEnrichmentStore } from '../../lambda/infrastructure/memory/memory-enrichment-store';
import { MemoryReferenceDataset } from '../../lambda/infrastructure/memory/memory-reference-dataset';
import { MemoryPersonSecret } from '../../lambda/infrastructure/memory/memory-person-secret';
import { MemoryPersonStore } from '../../lambda/infrastructure/memory/memory-person-store';
import { MemoryReportStore } from '../../lambda/infrastructure/memory/memory-report-store';
import { PersonKeys } from '../../lambda/kernel/person-key';

/**
 * The control room on in-memory ports, made anew before each test of the
 * file that asks for it: the contact, enrichment and control stores over one
 * set of records, a vendor dataset, the reports and a person's data over them,
 * a clock that moves a second per reading,
 * and the operations run as the function runs them (handleControlRequest).
 */
export const CONTROL_FACTORY = 'fac_rules';
export const CONTROL_CALLER = 'arn:aws:sts::123456789012:assumed-role/ControlRoom/op';

export interface MemoryControlRoom {
  contacts: MemoryContactStore;
  enrichmentStore: MemoryEnrichmentStore;
  store: MemoryControlStore;
  dataset: MemoryReferenceDataset;
  /** The reports and issues: what a person's reports and the issue operations read. */
  reports: MemoryReportStore;
  enrichment: EnrichmentContext;
  deps: ControlDependencies;
  /** The clock's next reading, a second after the last. */
  tick(): Date;
  /** An upsert through the contacts API's own rule: the contact as answered. */
  upsert(body: Record<string, unknown>): Promise<Contact>;
  stored(id: string): Promise<StoredContact>;
  clear(id: string, fields: ClearableField[], reason?: string, on?: ControlStore): ReturnType<typeof runClear>;
  billed(): Promise<number>;
  /** An operation for the factory, as the function runs it. */
  control(request: Record<string, unknown>): ReturnType<typeof handleControlRequest>;
}

export function memoryControlRoom(): MemoryControlRoom {
  let clock = 0;
  const room = {
    tick: () => new Date((clock += 1000)),
    upsert: async (body: Record<string, unknown>) =>
      (await upsertContact(room.contacts, CONTROL_FACTORY, upsertBody.parse(body), { now: room.tick().toISOString(), creationToken: 't' })).contact,
    stored: async (id: string) => (await room.store.getContact(CONTROL_FACTORY, id))!,
    clear: (id: string, fields: ClearableField[], reason?: string, on: ControlStore = room.store) =>
      runClear(on, CONTROL_FACTORY, id, { fields, by: CONTROL_CALLER, reason, at: room.tick().toISOString() }),
    billed: async () => (await room.enrichmentStore.usage(CONTROL_FACTORY)).reduce((sum, usage) => sum + usage.billedPasses, 0),
    control: (request: Record<string, unknown>) => handleControlRequest(room.deps, { factoryId: CONTROL_FACTORY, ...request }, { principal: CONTROL_CALLER }),
  } as MemoryControlRoom;
  beforeEach(() => {
    clock = Date.parse('2026-11-21T09:00:00.000Z');
    room.contacts = new MemoryContactStore();
    room.enrichmentStore = new MemoryEnrichmentStore(room.contacts);
    room.store = new MemoryControlStore(room.contacts, room.enrichmentStore);
    room.dataset = new MemoryReferenceDataset();
    room.enrichment = { store: room.enrichmentStore, sources: [room.dataset, new EmailNameHeuristic()], provider: 'Platform', now: () => room.tick() };
    room.reports = new MemoryReportStore();
    room.deps = {
      store: room.store,
      enrichment: room.enrichment,
      issues: room.reports,
      people: new MemoryPersonStore(room.contacts, room.enrichmentStore, room.reports, new PersonKeys(new MemoryPersonSecret()), room.dataset),
      now: () => room.tick(),
    };
  });
  return room;
}
