import { createHash } from 'node:crypto';
import { companyItems, getItem } from '../support/items';
import { newTenant, startLocalApi, type LocalApi } from '../support/local-api';

const expectedCompanyId = (factoryId: string, domain: string) => `co_${createHash('sha256').update(`${factoryId}:${domain}`).digest('hex').slice(0, 16)}`;

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
});
afterAll(() => api.close());

/** A fresh factory per test: company assertions count the factory's companies. */
const factory = () => newTenant(api, 'company');

describe('companyDomain links the contact to a company found or created by domain', () => {
  test('links a new contact and creates the company, named by `company`', async () => {
    const { factoryId, upsert } = await factory();
    const res = await upsert({ email: 'ada@acme.io', company: 'Acme Inc.', companyDomain: 'acme.io' });
    expect(res.json.contact.companyId).toBe(expectedCompanyId(factoryId, 'acme.io'));
    expect(await companyItems(factoryId)).toEqual([expect.objectContaining({ id: res.json.contact.companyId, domain: 'acme.io', name: 'Acme Inc.' })]);
  });

  test('names a new company after its domain when `company` is not sent', async () => {
    const { factoryId, upsert } = await factory();
    await upsert({ email: 'bob@globex.com', companyDomain: 'globex.com' });
    expect((await companyItems(factoryId)).map((c) => c.name)).toEqual(['globex.com']);
  });

  test('normalizes the domain: scheme, www., trailing slash and case all find the same company', async () => {
    const { factoryId, upsert } = await factory();
    const spellings = ['https://www.Initech.com/', 'http://initech.com', 'INITECH.COM', 'www.initech.com/'];
    const ids = [];
    for (const [i, companyDomain] of spellings.entries()) {
      ids.push((await upsert({ email: `p${i}@initech.com`, companyDomain })).json.contact.companyId);
    }
    expect(new Set(ids)).toEqual(new Set([expectedCompanyId(factoryId, 'initech.com')]));
    expect(await companyItems(factoryId)).toHaveLength(1);
  });

  test('an international domain and its ASCII (punycode) form find the same company', async () => {
    const { factoryId, upsert } = await factory();
    const a = await upsert({ email: 'a@muenchen.example', companyDomain: 'https://www.MÜNCHEN.de/' });
    const b = await upsert({ email: 'b@muenchen.example', companyDomain: 'xn--mnchen-3ya.de' });
    expect(a.json.contact.companyId).toBe(expectedCompanyId(factoryId, 'xn--mnchen-3ya.de'));
    expect(b.json.contact.companyId).toBe(a.json.contact.companyId);
    expect(await companyItems(factoryId)).toHaveLength(1);
  });

  test('finds an existing company: a later contact with another `company` name links to it unchanged', async () => {
    const { factoryId, upsert } = await factory();
    await upsert({ email: 'a@umbrella.com', company: 'Umbrella', companyDomain: 'umbrella.com' });
    const second = await upsert({ email: 'b@umbrella.com', company: 'Umbrella Corp (renamed)', companyDomain: 'umbrella.com' });
    expect(second.json.contact.companyId).toBe(expectedCompanyId(factoryId, 'umbrella.com'));
    expect((await companyItems(factoryId)).map((c) => c.name)).toEqual(['Umbrella']);
  });

  test('a company name without a domain creates no company and no link', async () => {
    const { factoryId, upsert } = await factory();
    const res = await upsert({ email: 'c@nodomain.com', company: 'No Domain Ltd' });
    expect(res.json.contact).not.toHaveProperty('companyId');
    expect(await companyItems(factoryId)).toHaveLength(0);
  });

  test('links an existing unlinked contact on a later call', async () => {
    const { factoryId, upsert } = await factory();
    await upsert({ email: 'late@hooli.com' });
    const res = await upsert({ email: 'late@hooli.com', companyDomain: 'hooli.com' });
    expect(res.json.contact.companyId).toBe(expectedCompanyId(factoryId, 'hooli.com'));
  });

  test('never reassigns a link, and creates no company for the other domain', async () => {
    const { factoryId, upsert } = await factory();
    const first = await upsert({ email: 'd@first.com', companyDomain: 'first.com' });
    const second = await upsert({ email: 'd@first.com', company: 'Second', companyDomain: 'second.com' });
    expect(second.json.contact.companyId).toBe(first.json.contact.companyId);
    expect(await getItem(factoryId, 'company#second.com')).toBeUndefined();
    expect(await companyItems(factoryId)).toHaveLength(1);
  });

  test('keeps the link when a later call omits companyDomain', async () => {
    const { upsert } = await factory();
    const first = await upsert({ email: 'e@keep.com', companyDomain: 'keep.com' });
    const second = await upsert({ email: 'e@keep.com', name: 'E' });
    expect(second.json.contact.companyId).toBe(first.json.contact.companyId);
  });

  test('refuses a companyDomain that is not a domain with 422', async () => {
    const { factoryId, upsert } = await factory();
    for (const companyDomain of ['not a domain', 'https://', 'localhost', '-bad-.com']) {
      const res = await upsert({ email: 'f@bad.com', companyDomain });
      expect(res.status).toBe(422);
      expect(res.json.error).toMatch(/^companyDomain must be a domain/);
    }
    expect(await companyItems(factoryId)).toHaveLength(0);
  });

  test('company ids differ between factories for the same domain', async () => {
    const a = await factory();
    const b = await factory();
    const ra = await a.upsert({ email: 'x@shared.com', companyDomain: 'shared.com' });
    const rb = await b.upsert({ email: 'x@shared.com', companyDomain: 'shared.com' });
    expect(ra.json.contact.companyId).not.toBe(rb.json.contact.companyId);
  });
});
