import type { ControlStore } from '../../lambda/control/ports';
import { runClear } from '../../lambda/control/run-clear';
import { upsertContact } from '../../lambda/contacts/domain/upsert-contact';
import { upsertBody } from '../../lambda/contacts/domain/upsert-input';
import { runBulk } from '../../lambda/contacts/enrichment/run-bulk';
import { runPass, type EnrichmentContext } from '../../lambda/contacts/enrichment/run-pass';
import { EmailNameHeuristic } from '../../lambda/contacts/enrichment/sources/email-name-heuristic';
import { MemoryContactStore } from '../../lambda/infrastructure/memory/memory-contact-store';
import { MemoryControlStore } from '../../lambda/infrastructure/memory/memory-control-store';
import { MemoryEnrichmentStore } from '../../lambda/infrastructure/memory/memory-enrichment-store';
import { MemoryReferenceDataset } from '../../lambda/infrastructure/memory/memory-reference-dataset';

/**
 * Where clearing meets enrichment, on in-memory ports: a value the control
 * room cleared stays cleared through passes and bulk runs, and a pass and a
 * clear that race each keep what the other wrote. Each operation's own rules
 * are in its mirrored test (test/lambda/control/); test/control and
 * test/reliability hold the DynamoDB adapters to them on DynamoDB Local.
 */
const FACTORY = 'fac_rules';
const BY = 'arn:aws:sts::123456789012:assumed-role/ControlRoom/op';
let contacts: MemoryContactStore;
let enrichmentStore: MemoryEnrichmentStore;
let store: MemoryControlStore;
let dataset: MemoryReferenceDataset;
let enrichment: EnrichmentContext;
let clock: number;
beforeEach(() => {
  contacts = new MemoryContactStore();
  enrichmentStore = new MemoryEnrichmentStore(contacts);
  store = new MemoryControlStore(contacts, enrichmentStore);
  dataset = new MemoryReferenceDataset();
  enrichment = { store: enrichmentStore, sources: [dataset, new EmailNameHeuristic()], provider: 'Platform', now: () => tick() };
  clock = Date.parse('2026-11-21T09:00:00.000Z');
});
/** A clock that moves a second per reading: every write has its own time. */
const tick = () => new Date((clock += 1000));

const upsert = async (body: Record<string, unknown>) =>
  (await upsertContact(contacts, FACTORY, upsertBody.parse(body), { now: tick().toISOString(), creationToken: 't' })).contact;
const stored = async (id: string) => (await store.getContact(FACTORY, id))!;
const clear = (id: string, fields: ('title' | 'name' | 'phone' | 'page' | 'location' | 'companyId')[], reason?: string, on: ControlStore = store) =>
  runClear(on, FACTORY, id, { fields, by: BY, reason, at: tick().toISOString() });
const billed = async () => (await enrichmentStore.usage(FACTORY)).reduce((sum, usage) => sum + usage.billedPasses, 0);

describe('a cleared enrichment value', () => {
  async function enrichedWithWrongTitle(email: string) {
    dataset.add(email, { title: 'Wrong Title', location: 'Lima' });
    const contact = await upsert({ email });
    await runPass(enrichment, FACTORY, contact.id, { bulk: false });
    await clear(contact.id, ['title']);
    return contact;
  }

  test('is not refilled by a refresh, not billed for, and not recorded as found', async () => {
    const contact = await enrichedWithWrongTitle('e1@example.com');
    const pass = await runPass(enrichment, FACTORY, contact.id, { bulk: false });
    expect(pass).toMatchObject({ outcome: 'complete', ignored: ['title'], found: { location: 'Lima' } });
    const after = await stored(contact.id);
    expect(after.title).toBeUndefined();
    expect(after.enrichment?.fields).toEqual({ location: 'Lima' });
  });

  test('nor by a bulk run', async () => {
    const contact = await enrichedWithWrongTitle('e2@example.com');
    await runBulk(enrichment, FACTORY);
    expect((await stored(contact.id)).title).toBeUndefined();
  });

  test('a pass that finds only the cleared value is a free miss', async () => {
    dataset.add('e3@example.com', { title: 'Wrong Title' });
    const contact = await upsert({ email: 'e3@example.com' });
    await runPass(enrichment, FACTORY, contact.id, { bulk: false });
    await clear(contact.id, ['title']);
    const before = await billed();
    expect(await runPass(enrichment, FACTORY, contact.id, { bulk: false })).toMatchObject({ outcome: 'miss', billed: false, ignored: ['title'] });
    expect(await billed()).toBe(before);
  });

  test('is also dropped from enrichment.fields by the clear itself; enriched stays true', async () => {
    const contact = await enrichedWithWrongTitle('e4@example.com');
    const after = await stored(contact.id);
    expect(after).toMatchObject({ enriched: true, location: 'Lima' });
    expect(after.enrichment?.fields).toEqual({ location: 'Lima' });
  });

  test('a different value a source finds later fills the field', async () => {
    const contact = await enrichedWithWrongTitle('e5@example.com');
    dataset.add('e5@example.com', { title: 'Right Title' });
    await runPass(enrichment, FACTORY, contact.id, { bulk: false });
    expect((await stored(contact.id)).title).toBe('Right Title');
  });

  test('a later caller write fills the field as usual, and enrichment leaves it alone', async () => {
    const contact = await enrichedWithWrongTitle('e6@example.com');
    await upsert({ email: 'e6@example.com', title: 'Wrong Title' });
    expect((await stored(contact.id)).title).toBe('Wrong Title');
    await runPass(enrichment, FACTORY, contact.id, { bulk: false });
    expect((await stored(contact.id)).title).toBe('Wrong Title');
  });

  test("a clear landing between a pass's read and its write makes the pass plan again, without the cleared value", async () => {
    dataset.add('e7@example.com', { title: 'Wrong Title' });
    const contact = await upsert({ email: 'e7@example.com', title: 'Wrong Title' });
    const racing = Object.create(enrichmentStore) as MemoryEnrichmentStore;
    let raced = false;
    racing.applyPass = async (write) => {
      if (!raced) {
        raced = true;
        await clear(contact.id, ['title']);
      }
      return enrichmentStore.applyPass(write);
    };
    const pass = await runPass({ ...enrichment, store: racing }, FACTORY, contact.id, { bulk: false });
    expect(pass).toMatchObject({ ignored: ['title'] });
    expect((await stored(contact.id)).title).toBeUndefined();
  });
});

describe('a pass planned before a clear', () => {
  test('does not fill the cleared value when a caller wrote it and the operator cleared it in between', async () => {
    dataset.add('r1@example.com', { title: 'Same Title' });
    const contact = await upsert({ email: 'r1@example.com' });
    const racing = Object.create(enrichmentStore) as MemoryEnrichmentStore;
    let raced = false;
    racing.applyPass = async (write) => {
      if (!raced) {
        raced = true;
        await upsert({ email: 'r1@example.com', title: 'Same Title' });
        await clear(contact.id, ['title']);
      }
      return enrichmentStore.applyPass(write);
    };
    const pass = await runPass({ ...enrichment, store: racing }, FACTORY, contact.id, { bulk: false });
    expect(pass).toMatchObject({ ignored: ['title'] });
    expect((await stored(contact.id)).title).toBeUndefined();
  });
});
