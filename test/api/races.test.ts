import { companyItems, contactItems } from '../support/items';
import { newTenant, startLocalApi, type LocalApi } from '../support/local-api';

const PARALLEL = 30;

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
});
afterAll(() => api.close());

const factory = () => newTenant(api, 'race');

const times = <T>(n: number, make: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => make(i)));

describe(`invariants under ${PARALLEL} parallel requests`, () => {
  test('one record and exactly one created: true per factory + email', async () => {
    const { factoryId, upsert } = await factory();
    const results = await times(PARALLEL, (i) => upsert({ email: i % 2 ? 'Race@Example.com' : 'race@example.com', name: `n${i}` }));
    expect(results.map((r) => r.status).sort()).toEqual([...Array(PARALLEL - 1).fill(200), 201]);
    expect(results.filter((r) => r.json.created === true)).toHaveLength(1);
    expect(new Set(results.map((r) => r.json.contact.id)).size).toBe(1);
    expect(await contactItems(factoryId)).toHaveLength(1);
  });

  test('createdAt is set once: every response carries the same createdAt', async () => {
    const { upsert } = await factory();
    const results = await times(PARALLEL, (i) => upsert({ email: 'created@example.com', title: `t${i}` }));
    expect(new Set(results.map((r) => r.json.contact.createdAt)).size).toBe(1);
  });

  test('a new contact racing with different domains is linked once, to one company, and only that company exists', async () => {
    const { factoryId, upsert } = await factory();
    const results = await times(PARALLEL, (i) => upsert({ email: 'linked@example.com', companyDomain: `company${i}.com` }));
    const linked = new Set(results.map((r) => r.json.contact.companyId));
    expect(linked.size).toBe(1);
    const companies = await companyItems(factoryId);
    expect(companies).toHaveLength(1);
    expect(companies[0]?.id).toBe([...linked][0]);
  });

  test('contacts racing on one domain, spelled differently, share one company', async () => {
    const { factoryId, upsert } = await factory();
    const spellings = ['acme.io', 'https://www.acme.io/', 'ACME.IO', 'http://acme.io'];
    const results = await times(PARALLEL, (i) =>
      upsert({ email: `p${i}@acme.io`, company: `Acme ${i}`, companyDomain: spellings[i % spellings.length] }),
    );
    expect(new Set(results.map((r) => r.json.contact.companyId)).size).toBe(1);
    const companies = await companyItems(factoryId);
    expect(companies).toHaveLength(1);
    expect(companies[0]?.name).toMatch(/^Acme \d+$/);
  });

  test('a contact already linked never gets a company created by racing requests', async () => {
    const { factoryId, upsert } = await factory();
    const first = await upsert({ email: 'fixed@example.com', companyDomain: 'original.com' });
    const results = await times(PARALLEL, (i) => upsert({ email: 'fixed@example.com', companyDomain: `intruder${i}.com` }));
    expect(results.every((r) => r.json.contact.companyId === first.json.contact.companyId)).toBe(true);
    expect((await companyItems(factoryId)).map((c) => c.domain)).toEqual(['original.com']);
  });

  test('racing updates never lose createdAt or source, and all answer created: false', async () => {
    const { factoryId, upsert } = await factory();
    const created = await upsert({ email: 'busy@example.com', source: 'ads' });
    const results = await times(PARALLEL, (i) => upsert({ email: 'busy@example.com', name: `name ${i}` }));
    expect(results.every((r) => r.status === 200 && r.json.created === false)).toBe(true);
    const [item] = await contactItems(factoryId);
    expect(item).toMatchObject({ createdAt: created.json.contact.createdAt, source: 'ads' });
    expect(item?.name).toMatch(/^name \d+$/);
  });
});
