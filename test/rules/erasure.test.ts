import { randomUUID } from 'node:crypto';
import { handleControlRequest } from '../../lambda/control/handle-request';
import type { ControlDependencies } from '../../lambda/control/ports';
import { hashSecret } from '../../lambda/kernel/api-key';
import { PersonKeys } from '../../lambda/kernel/person-key';
import { upsertContact } from '../../lambda/contacts/domain/upsert-contact';
import { upsertBody } from '../../lambda/contacts/domain/upsert-input';
import { EmailNameHeuristic } from '../../lambda/contacts/enrichment/sources/email-name-heuristic';
import { receiveEvents, type RequestReceipt } from '../../lambda/ingest/receive-events';
import { submitFeatureRequest } from '../../lambda/ingest/submit-feature-request';
import { readFeatureRequest } from '../../lambda/ingest/payloads';
import { MemoryContactStore } from '../../lambda/infrastructure/memory/memory-contact-store';
import { MemoryControlStore } from '../../lambda/infrastructure/memory/memory-control-store';
import { MemoryEnrichmentStore } from '../../lambda/infrastructure/memory/memory-enrichment-store';
import { MemoryIngestKeys } from '../../lambda/infrastructure/memory/memory-ingest-keys';
import { MemoryIssueLimiter } from '../../lambda/infrastructure/memory/memory-issue-limiter';
import { MemoryPersonSecret } from '../../lambda/infrastructure/memory/memory-person-secret';
import { MemoryPersonStore } from '../../lambda/infrastructure/memory/memory-person-store';
import { MemoryReferenceDataset } from '../../lambda/infrastructure/memory/memory-reference-dataset';
import { MemoryReportStore } from '../../lambda/infrastructure/memory/memory-report-store';

/**
 * Erasure on the in-memory twin (lambda/infrastructure/memory): the same operation as on
 * DynamoDB Local (test/control/erasure.test.ts), over the memory stores.
 */
const FACTORY = 'fac_rules';
const BY = { principal: 'arn:aws:sts::123456789012:assumed-role/ControlRoom/dpo' };
const KEY = { factoryId: FACTORY, keyId: 'key_0000000000000001', origins: ['https://app.example.com'], rateLimit: 600 };
const EMAIL = 'grace.hopper@navy.example';

let contacts: MemoryContactStore;
let enrichment: MemoryEnrichmentStore;
let reports: MemoryReportStore;
let vendor: MemoryReferenceDataset;
let deps: ControlDependencies;
let clock: number;
const tick = () => new Date((clock += 1000));

beforeEach(() => {
  clock = Date.parse('2026-11-27T09:00:00.000Z');
  contacts = new MemoryContactStore();
  enrichment = new MemoryEnrichmentStore(contacts);
  reports = new MemoryReportStore();
  vendor = new MemoryReferenceDataset();
  deps = {
    store: new MemoryControlStore(contacts, enrichment),
    enrichment: { store: enrichment, sources: [vendor, new EmailNameHeuristic()], provider: 'Platform', now: () => tick() },
    issues: reports,
    people: new MemoryPersonStore(contacts, enrichment, reports, new PersonKeys(new MemoryPersonSecret()), vendor),
    now: () => tick(),
  };
});

const call = (request: Record<string, unknown>) => handleControlRequest(deps, request, BY);
const receipt = (): RequestReceipt => ({
  factoryId: FACTORY,
  keyId: KEY.keyId,
  origin: KEY.origins[0] as string,
  receivedAt: tick().toISOString(),
  expiresAt: 1_900_000_000,
  requestToken: randomUUID(),
});

async function personEverywhere() {
  expect(await vendor.load([{ email: EMAIL, title: 'Rear Admiral', location: 'Arlington, VA' }])).toEqual({ written: 1, suppressed: [] });
  const { contact } = await upsertContact(contacts, FACTORY, upsertBody.parse({ email: EMAIL, title: 'Rear Admiral' }), {
    now: tick().toISOString(),
    creationToken: 't',
  });
  await call({ operation: 'contacts.clear', factoryId: FACTORY, contactId: contact.id, fields: ['title'] });
  await call({ operation: 'enrichment.refresh', factoryId: FACTORY, contactId: contact.id, passId: randomUUID() });
  const keys = new MemoryIngestKeys();
  keys.issue(hashSecret('dfpk_rules'), { type: 'publishable', ...KEY });
  const ingest = { reports, issueLimits: new MemoryIssueLimiter(), keys };
  for (const reporter of [{ email: EMAIL.toUpperCase(), name: 'Grace' }, { email: 'someone.else@example.org' }]) {
    const at = receipt();
    await receiveEvents(
      ingest,
      { events: [{ eventId: randomUUID(), message: `bug seen by ${EMAIL}`, reporter }] },
      at,
      { key: KEY, keyHash: hashSecret('dfpk_rules') },
      Date.parse(at.receivedAt),
    );
  }
  const request = readFeatureRequest({ requestId: randomUUID(), title: 'Dark mode', reporter: { email: EMAIL } });
  if (!request.ok) throw new Error(request.problems.join('; '));
  await submitFeatureRequest(reports, request.value, receipt());
  return contact.id;
}

test('an erasure on the memory stores removes the contact, its pass marker and the reporter of its reports, and leaves the email nowhere', async () => {
  const contactId = await personEverywhere();
  expect(enrichment.passIds.size).toBe(1);

  const erased = await call({ operation: 'contacts.erase', factoryId: FACTORY, email: EMAIL });

  expect(erased.body).toMatchObject({
    contactId,
    erased: true,
    contact: true,
    passMarkers: 1,
    vendorRecord: true,
    events: 1,
    featureRequests: 1,
    complete: true,
  });
  expect(contacts.contacts.size).toBe(0);
  expect(enrichment.passIds.size).toBe(0);
  expect(vendor.people.size).toBe(0);
  expect([...vendor.suppressed.keys()]).toEqual([expect.stringMatching(/^suppressed#[0-9a-f]{32}$/)]);
  const left = JSON.stringify([
    ...reports.events.values(),
    ...reports.featureRequests.values(),
    ...vendor.people.keys(),
    ...vendor.suppressed.keys(),
  ]).toLowerCase();
  expect(left).not.toContain(EMAIL);
  // Another person's report keeps its reporter.
  expect(left).toContain('someone.else@example.org');
});

test('on the memory stores too, erasing again finds nothing, and an upsert after it creates a new contact', async () => {
  await personEverywhere();
  await call({ operation: 'contacts.erase', factoryId: FACTORY, email: EMAIL });

  const again = await call({ operation: 'contacts.erase', factoryId: FACTORY, email: EMAIL });
  const upserted = await upsertContact(contacts, FACTORY, upsertBody.parse({ email: EMAIL }), { now: tick().toISOString(), creationToken: 'u' });

  expect(again.body).toMatchObject({ erased: false, contact: false, passMarkers: 0, vendorRecord: false, events: 0, featureRequests: 0 });
  expect(vendor.suppressed.size).toBe(1);
  expect(upserted.created).toBe(true);
  expect(upserted.contact.title).toBeUndefined();
});

test('on the memory stores, a load after an erasure leaves the erased person out and says so, and adds the others', async () => {
  await personEverywhere();
  await call({ operation: 'contacts.erase', factoryId: FACTORY, email: EMAIL });

  const loaded = await vendor.load([
    { email: EMAIL, title: 'Admiral' },
    { email: 'alan.turing@example.org', title: 'Cryptanalyst' },
  ]);

  expect(loaded).toEqual({ written: 1, suppressed: [EMAIL] });
  expect([...vendor.people.keys()]).toEqual(['alan.turing@example.org']);
});

test("on the memory stores, the export carries the vendor's record of the email", async () => {
  await personEverywhere();
  const exported = await call({ operation: 'contacts.export-person', factoryId: FACTORY, email: EMAIL });
  expect(exported.body.vendorRecord).toEqual({ email: EMAIL, title: 'Rear Admiral', location: 'Arlington, VA' });
  expect(exported.audit).toMatchObject({ vendorRecord: true });
});

test("on the memory stores, export and a contact's page list the same reports, newest first", async () => {
  const contactId = await personEverywhere();
  const exported = await call({ operation: 'contacts.export-person', factoryId: FACTORY, contactId });
  const shown = await call({ operation: 'contacts.show', factoryId: FACTORY, contactId });
  expect((exported.body.reports as { kind: string }[]).map((report) => report.kind)).toEqual(['feature-request', 'event']);
  expect(shown.body.reports).toEqual(exported.body.reports);
});
