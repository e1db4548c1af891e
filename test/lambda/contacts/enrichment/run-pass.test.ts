import { upsertContact } from '../../../../lambda/contacts/domain/upsert-contact';
import { upsertBody } from '../../../../lambda/contacts/domain/upsert-input';
import { lookup, runPass, type EnrichmentContext } from '../../../../lambda/contacts/enrichment/run-pass';
import type { EnrichmentStore } from '../../../../lambda/contacts/enrichment/ports';
import { EmailNameHeuristic } from '../../../../lambda/contacts/enrichment/sources/email-name-heuristic';
import { MemoryContactStore } from '../../../../lambda/infrastructure/memory/memory-contact-store';
import { MemoryEnrichmentStore } from '../../../../lambda/infrastructure/memory/memory-enrichment-store';
import { MemoryReferenceDataset } from '../../../../lambda/infrastructure/memory/memory-reference-dataset';

/**
 * One enrichment pass (docs/control-room.md#enrichment: planning, billing, retries) on
 * in-memory ports: no DynamoDB. test/enrichment/*.test.ts hold it on DynamoDB Local.
 */
const FACTORY = 'fac_rules';
let contacts: MemoryContactStore;
let store: MemoryEnrichmentStore;
let dataset: MemoryReferenceDataset;
let context: EnrichmentContext;
beforeEach(() => {
  contacts = new MemoryContactStore();
  store = new MemoryEnrichmentStore(contacts);
  dataset = new MemoryReferenceDataset();
  context = { store, sources: [dataset, new EmailNameHeuristic()], provider: 'Platform' };
});

const upsert = async (body: Record<string, unknown>) =>
  (await upsertContact(contacts, FACTORY, upsertBody.parse(body), { now: new Date().toISOString(), creationToken: 't' })).contact;
const billed = async () => (await store.usage(FACTORY)).reduce((sum, usage) => sum + usage.billedPasses, 0);
const stored = (id: string) => store.getContact(FACTORY, id);

describe('a pass', () => {
  test('fills only empty fields, records everything found, bills the pass', async () => {
    dataset.add('p1@example.com', { name: 'Vendor', title: 'CTO' });
    const contact = await upsert({ email: 'p1@example.com', name: 'Caller' });
    const result = await runPass(context, FACTORY, contact.id, { bulk: false });
    expect(result).toMatchObject({ outcome: 'enriched', billed: true });
    expect(await stored(contact.id)).toMatchObject({
      name: 'Caller',
      title: 'CTO',
      enriched: true,
      enrichment: { provider: 'Platform', fields: { name: 'Vendor', title: 'CTO' } },
    });
    expect(await billed()).toBe(1);
  });

  test('a clean miss is free and leaves a never-enriched contact without enriched or enrichment', async () => {
    const contact = await upsert({ email: 'nobody1@example.com' });
    expect(await runPass(context, FACTORY, contact.id, { bulk: false })).toMatchObject({ outcome: 'miss', billed: false });
    const after = await stored(contact.id);
    expect(after?.enriched).toBeUndefined();
    expect(after?.enrichment).toBeUndefined();
    expect(await billed()).toBe(0);
  });

  test('found values for fields all already set: billed, not enriched', async () => {
    dataset.add('p2@example.com', { title: 'CTO' });
    const contact = await upsert({ email: 'p2@example.com', title: 'CEO' });
    expect(await runPass(context, FACTORY, contact.id, { bulk: false })).toMatchObject({ outcome: 'complete', billed: true });
    expect((await stored(contact.id))?.enriched).toBeUndefined();
  });

  test('a caller value that lands between the read and the write is never overwritten', async () => {
    dataset.add('p3@example.com', { title: 'Vendor title' });
    const contact = await upsert({ email: 'p3@example.com' });
    // The caller's upsert lands just before the pass writes.
    const racing: EnrichmentStore = Object.create(store) as EnrichmentStore;
    let raced = false;
    racing.applyPass = async (write) => {
      if (!raced) {
        raced = true;
        await upsert({ email: 'p3@example.com', title: 'Caller title' });
      }
      return store.applyPass(write);
    };
    const result = await runPass({ ...context, store: racing }, FACTORY, contact.id, { bulk: false });
    expect(result.outcome).toBe('complete');
    expect((await stored(contact.id))?.title).toBe('Caller title');
  });

  test('a pass retried with the same passId is applied and billed once', async () => {
    dataset.add('p5@example.com', { title: 'CTO' });
    const contact = await upsert({ email: 'p5@example.com' });
    await runPass(context, FACTORY, contact.id, { bulk: false, passId: 'pass-1' });
    const again = await runPass(context, FACTORY, contact.id, { bulk: false, passId: 'pass-1' });
    expect(again.outcome).toBe('duplicate');
    expect(await billed()).toBe(1);
  });
});

describe('the sources, asked together', () => {
  test('lookup merges sources in order, first value per field', async () => {
    const findings = await lookup(
      [
        { name: 'first', lookup: async () => ({ name: 'From first' }) },
        { name: 'second', lookup: async () => ({ name: 'From second', title: 'T' }) },
      ],
      'a@b.co',
    );
    expect(findings).toEqual({ found: { name: 'From first', title: 'T' }, lookedUp: true, fromData: ['name', 'title'] });
  });

  test('lookup tells whether a data source, not only a derived one, found something', async () => {
    const derived = { name: 'heuristic', derived: true, lookup: async () => ({ name: 'Derived' }) };
    const empty = { name: 'dataset', lookup: async () => ({}) };
    expect(await lookup([empty, derived], 'a@b.co')).toEqual({ found: { name: 'Derived' }, lookedUp: false, fromData: [] });
  });
});

test('a contact that is not there is not-found, billed nothing', async () => {
  expect(await runPass(context, FACTORY, 'ct_0000000000000000', { bulk: false })).toMatchObject({ outcome: 'not-found', billed: false });
  expect(await billed()).toBe(0);
});

test('a store that stays busy past every attempt is a storage failure, never a pass applied twice', async () => {
  dataset.add('busy@example.com', { title: 'CTO' });
  const contact = await upsert({ email: 'busy@example.com' });
  const busy: EnrichmentStore = Object.create(store) as EnrichmentStore;
  busy.applyPass = async () => ({ outcome: 'conflict', reason: 'busy' });
  await expect(runPass({ ...context, store: busy }, FACTORY, contact.id, { bulk: false })).rejects.toThrow(/kept changing or stayed busy during 6 attempts/);
  expect(await billed()).toBe(0);
});
