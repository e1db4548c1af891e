import { runPass } from '../../lambda/contacts/enrichment/run-pass';
import { billedPasses, enrichmentContext, PROVIDER, referencePerson, uniqueEmail } from '../support/enrichment';
import { getItem } from '../support/items';
import { newFactoryId, newTenant, startLocalApi, type LocalApi } from '../support/local-api';

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
});
afterAll(() => api.close());

/** A fresh factory; upsert and read give the contact, as the API returns it. */
async function factory() {
  const tenant = await newTenant(api, 'enrich');
  return {
    factoryId: tenant.factoryId,
    upsert: async (body: Record<string, unknown>) => (await tenant.upsert(body)).json.contact,
    read: async (id: string) => (await tenant.read(id)).json.contact,
  };
}

const context = enrichmentContext();
const refresh = (factoryId: string, contactId: string, passId?: string) => runPass(context, factoryId, contactId, { bulk: false, passId });

describe('a pass fills only empty fields', () => {
  test("fills the empty fields, keeps the caller's values, and records everything found", async () => {
    const { factoryId, upsert, read } = await factory();
    const email = uniqueEmail();
    await referencePerson(email, { name: 'Vendor Name', title: 'CTO', location: 'Lisbon' });
    const contact = await upsert({ email, name: 'Caller Name' });

    const result = await refresh(factoryId, contact.id);
    expect(result).toMatchObject({ outcome: 'enriched', billed: true });

    const after = await read(contact.id);
    expect(after).toMatchObject({ name: 'Caller Name', title: 'CTO', location: 'Lisbon', enriched: true });
    expect(after.enrichment).toEqual({
      provider: PROVIDER,
      at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
      fields: { name: 'Vendor Name', title: 'CTO', location: 'Lisbon' },
    });
    expect(Object.keys(after.enrichment)).toEqual(['provider', 'at', 'fields']);
    expect(Object.keys(after.enrichment.fields)).toEqual(['name', 'title', 'location']);
  });

  test('the provider is the platform constant, never a data source name', async () => {
    const { factoryId, upsert, read } = await factory();
    // Found by the name heuristic alone (first.last@), not the dataset.
    const contact = await upsert({ email: `marie.curie@${uniqueEmail('d').split('@')[0]}.org` });
    await refresh(factoryId, contact.id);
    const after = await read(contact.id);
    expect(after).toMatchObject({ name: 'Marie Curie', enriched: true });
    expect(after.enrichment.provider).toBe(PROVIDER);
  });

  test('moves updatedAt when it fills something', async () => {
    const { factoryId, upsert, read } = await factory();
    const email = uniqueEmail();
    await referencePerson(email, { phone: '+1 555 0100' });
    const contact = await upsert({ email });
    await refresh(factoryId, contact.id);
    const after = await read(contact.id);
    expect(after.updatedAt > contact.updatedAt).toBe(true);
    expect(after.createdAt).toBe(contact.createdAt);
  });

  test('a later caller write wins over an enriched value (enrichment never blocks the caller)', async () => {
    const { factoryId, upsert, read } = await factory();
    const email = uniqueEmail();
    await referencePerson(email, { title: 'Vendor Title' });
    const contact = await upsert({ email });
    await refresh(factoryId, contact.id);
    await upsert({ email, title: 'Caller Title' });
    expect((await read(contact.id)).title).toBe('Caller Title');
  });
});

describe('a contact never enriched', () => {
  test('has neither enriched nor enrichment, also after a pass that found nothing (free)', async () => {
    const { factoryId, upsert, read } = await factory();
    const contact = await upsert({ email: uniqueEmail() });
    const before = await billedPasses(factoryId);
    const result = await refresh(factoryId, contact.id);
    expect(result).toMatchObject({ outcome: 'miss', billed: false, found: {} });
    const after = await read(contact.id);
    expect(after).not.toHaveProperty('enriched');
    expect(after).not.toHaveProperty('enrichment');
    expect(await billedPasses(factoryId)).toBe(before);
    expect(await getItem(factoryId, contact.id)).not.toHaveProperty('enrichmentCheckedAt');
  });
});

describe('a pass that finds values for fields all already set (docs/control-room.md#enrichment)', () => {
  test('is billed, but does not mark the contact enriched nor add enrichment', async () => {
    const { factoryId, upsert, read } = await factory();
    const email = uniqueEmail();
    await referencePerson(email, { name: 'Vendor', title: 'Vendor Title' });
    const contact = await upsert({ email, name: 'Mine', title: 'My Title' });
    const result = await refresh(factoryId, contact.id);
    expect(result).toMatchObject({ outcome: 'complete', billed: true, found: { name: 'Vendor', title: 'Vendor Title' } });
    const after = await read(contact.id);
    expect(after).toMatchObject({ name: 'Mine', title: 'My Title' });
    expect(after).not.toHaveProperty('enriched');
    expect(after).not.toHaveProperty('enrichment');
    expect(await billedPasses(factoryId)).toBe(1);
  });

  test('on a contact enriched before, records the pass in enrichment and keeps enriched', async () => {
    const { factoryId, upsert, read } = await factory();
    const email = uniqueEmail();
    await referencePerson(email, { title: 'Vendor Title' });
    const contact = await upsert({ email });
    await refresh(factoryId, contact.id);
    const first = await read(contact.id);
    await referencePerson(email, { title: 'Newer Vendor Title' });
    const second = await refresh(factoryId, contact.id);
    expect(second.outcome).toBe('complete');
    const after = await read(contact.id);
    expect(after.title).toBe('Vendor Title');
    expect(after.enriched).toBe(true);
    expect(after.enrichment.fields).toEqual({ title: 'Newer Vendor Title' });
    expect(after.enrichment.at >= first.enrichment.at).toBe(true);
  });
});

describe('values derived from the contact itself (the name heuristic)', () => {
  test('fill an empty name and are billed like any fill', async () => {
    const { factoryId, upsert, read } = await factory();
    const contact = await upsert({ email: `nikola.tesla@${uniqueEmail('d').split('@')[0]}.com` });
    expect(await refresh(factoryId, contact.id)).toMatchObject({ outcome: 'enriched', billed: true });
    expect((await read(contact.id)).name).toBe('Nikola Tesla');
  });

  test('that fill nothing make a free miss, not a billed pass', async () => {
    const { factoryId, upsert, read } = await factory();
    const contact = await upsert({ email: `nikola.tesla@${uniqueEmail('d').split('@')[0]}.com`, name: 'N. Tesla' });
    expect(await refresh(factoryId, contact.id)).toMatchObject({ outcome: 'miss', billed: false, found: { name: 'Nikola Tesla' } });
    expect(await billedPasses(factoryId)).toBe(0);
    expect(await read(contact.id)).not.toHaveProperty('enrichment');
  });
});

describe('refresh', () => {
  test('that finds nothing on a contact enriched before records the pass: at moves, fields empty, free', async () => {
    const { factoryId, upsert, read } = await factory();
    const email = uniqueEmail();
    await referencePerson(email, { location: 'Berlin' });
    const contact = await upsert({ email });
    await refresh(factoryId, contact.id);
    const first = await read(contact.id);
    await referencePerson(email, {});
    expect(await refresh(factoryId, contact.id)).toMatchObject({ outcome: 'miss', billed: false });
    const after = await read(contact.id);
    expect(after).toMatchObject({ location: 'Berlin', enriched: true, enrichment: { provider: PROVIDER, fields: {} } });
    expect(after.enrichment.at > first.enrichment.at).toBe(true);
    expect(await billedPasses(factoryId)).toBe(1);
  });

  test('re-enriches a contact already enriched (a deliberate action)', async () => {
    const { factoryId, upsert } = await factory();
    const email = uniqueEmail();
    await referencePerson(email, { location: 'Oslo' });
    const contact = await upsert({ email });
    expect((await refresh(factoryId, contact.id)).billed).toBe(true);
    expect((await refresh(factoryId, contact.id)).billed).toBe(true);
    expect(await billedPasses(factoryId)).toBe(2);
  });

  test('reports not-found for a contact that does not exist, and bills nothing', async () => {
    const factoryId = newFactoryId('enrich');
    expect((await refresh(factoryId, 'ct_0000000000000000')).outcome).toBe('not-found');
    expect(await billedPasses(factoryId)).toBe(0);
  });

  test('never creates a contact item', async () => {
    const factoryId = newFactoryId('enrich');
    await refresh(factoryId, 'ct_0000000000000001');
    expect(await getItem(factoryId, 'ct_0000000000000001')).toBeUndefined();
  });
});
