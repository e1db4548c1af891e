import type { Contact } from '../../lambda/contacts/domain/contact';
import { contactId } from '../../lambda/contacts/domain/contact-id';
import type { HttpResponse } from '../support/http';
import { companyItems, contactItems } from '../support/items';
import { ConnectionPool } from '../support/connection-pool';
import { newTenant, realDependencies, startLocalApi, type LocalApi } from '../support/local-api';
import { SIZES } from './sizes';
import { stored } from '../support/emails';

/**
 * Upserts racing on one contact, through the Lambda's handler on DynamoDB
 * Local: the invariants of docs/architecture.md#how-the-invariants-hold-under-concurrency.
 * Sampled in `npm test`; full size with `npm run stress`.
 */

interface UpsertAnswer {
  contact: Contact;
  created: boolean;
}
const answer = (res: HttpResponse) => res.json as UpsertAnswer;

let api: LocalApi;
let pool: ConnectionPool;
beforeAll(async () => {
  // 5 s per DynamoDB attempt instead of 1 s: DynamoDB Local on a busy test machine is far slower than
  // DynamoDB, and its queueing must not turn into 503s (or SDK retries) that these invariants are not about.
  api = await startLocalApi(realDependencies({ requestTimeoutMs: 5000 }));
});
afterAll(() => api.close());
// Fresh connections per test: an idle keep-alive connection may be closed by the server just as it is reused.
beforeEach(() => {
  pool = new ConnectionPool(api.baseUrl, SIZES.connections);
});
afterEach(() => pool.close());

const tenant = () => newTenant(api, 'race');
const upsertAll = (auth: Record<string, string>, bodies: unknown[]) =>
  pool.sendAll(bodies.map((body) => ({ method: 'POST', path: '/api/v1/contacts', headers: auth, body })));

describe(`${SIZES.sameEmailUpserts} upserts of one new email over ${SIZES.connections} connections`, () => {
  test(
    'make one record: exactly one created: true, one id and one createdAt in every answer',
    async () => {
      const { factoryId, auth } = await tenant();
      const results = await upsertAll(
        auth,
        Array.from({ length: SIZES.sameEmailUpserts }, (_, i) => ({ email: i % 2 ? 'Race@Example.com' : 'race@example.com', name: `n${i}` })),
      );
      expect(pool.connectionsUsed).toBe(SIZES.connections);
      expect(results.filter((r) => r.status !== 200 && r.status !== 201)).toEqual([]);
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      expect(results.filter((r) => answer(r).created)).toHaveLength(1);
      expect(new Set(results.map((r) => answer(r).contact.id))).toEqual(new Set([contactId(factoryId, stored('race@example.com'))]));
      expect(new Set(results.map((r) => answer(r).contact.createdAt)).size).toBe(1);
      expect(await contactItems(factoryId)).toHaveLength(1);
    },
    SIZES.testTimeoutMs,
  );
});

describe(`${SIZES.fieldWriters} concurrent upserts writing different fields of one contact`, () => {
  test(
    'every field ends with a value some request sent, and no field is lost or cleared',
    async () => {
      const { factoryId, auth, upsert } = await tenant();
      const email = 'fields@example.com';
      // Every field starts with a value no racing request sends, so a lost write shows as that value.
      const first = answer(await upsert({ email, name: 'Initial', title: 'Initial title', phone: '+1 555 0000000', page: 'https://example.com/start' }));
      // Most requests write name or title (many writers each). In the middle of the burst, one request
      // each writes phone, page and source: a write lost to a racing request could never come back.
      const single = { phone: '+1 555 0123456', page: 'https://example.com/landing', source: 'ads' };
      const middle = Math.floor(SIZES.fieldWriters / 2);
      const bodies = Array.from(
        { length: SIZES.fieldWriters },
        (_, i): Record<string, string> => (i % 2 ? { email, name: `name ${i}` } : { email, title: `title ${i}` }),
      );
      bodies.splice(middle, 3, ...Object.entries(single).map(([field, value]) => ({ email, [field]: value })));
      const results = await upsertAll(auth, bodies);
      expect(results.filter((r) => r.status !== 200)).toEqual([]);

      const [stored] = await contactItems(factoryId);
      const sentNames = bodies.map((body) => body.name).filter(Boolean);
      const sentTitles = bodies.map((body) => body.title).filter(Boolean);
      expect(sentNames).toContain(stored?.name);
      expect(sentTitles).toContain(stored?.title);
      expect(stored).toMatchObject({ ...single, createdAt: first.contact.createdAt });
      // No answer ever lacks a field: omitted fields are never cleared, not even for a moment.
      for (const res of results) {
        expect(answer(res).contact).toMatchObject({
          name: expect.any(String),
          title: expect.any(String),
          phone: expect.any(String),
          page: expect.any(String),
          source: expect.any(String),
          createdAt: first.contact.createdAt,
        });
      }
    },
    SIZES.testTimeoutMs,
  );
});

describe(`company links under ${SIZES.parallel} parallel upserts`, () => {
  test('a new contact racing with different domains is linked once, to one company, and only that company exists', async () => {
    const { factoryId, auth } = await tenant();
    const results = await upsertAll(
      auth,
      Array.from({ length: SIZES.parallel }, (_, i) => ({ email: 'linked@example.com', companyDomain: `company${i}.com` })),
    );
    const linked = new Set(results.map((r) => answer(r).contact.companyId));
    expect(linked.size).toBe(1);
    const companies = await companyItems(factoryId);
    expect(companies).toHaveLength(1);
    expect(companies[0]?.id).toBe([...linked][0]);
  });

  test('contacts racing on one domain, spelled differently, share one company named by one of them', async () => {
    const { factoryId, auth } = await tenant();
    const spellings = ['acme.io', 'https://www.acme.io/', 'ACME.IO', 'http://acme.io'];
    const results = await upsertAll(
      auth,
      Array.from({ length: SIZES.parallel }, (_, i) => ({ email: `p${i}@acme.io`, company: `Acme ${i}`, companyDomain: spellings[i % spellings.length] })),
    );
    expect(new Set(results.map((r) => answer(r).contact.companyId)).size).toBe(1);
    const companies = await companyItems(factoryId);
    expect(companies).toHaveLength(1);
    expect(companies[0]?.name).toMatch(/^Acme \d+$/);
  });

  test('a contact already linked never gets a company created by racing requests', async () => {
    const { factoryId, auth, upsert } = await tenant();
    const first = answer(await upsert({ email: 'fixed@example.com', companyDomain: 'original.com' }));
    const results = await upsertAll(
      auth,
      Array.from({ length: SIZES.parallel }, (_, i) => ({ email: 'fixed@example.com', companyDomain: `intruder${i}.com` })),
    );
    expect(results.every((r) => answer(r).contact.companyId === first.contact.companyId)).toBe(true);
    expect((await companyItems(factoryId)).map((c) => c.domain)).toEqual(['original.com']);
  });

  test('racing updates never lose createdAt or source, and all answer created: false', async () => {
    const { factoryId, auth, upsert } = await tenant();
    const created = answer(await upsert({ email: 'busy@example.com', source: 'ads' }));
    const results = await upsertAll(
      auth,
      Array.from({ length: SIZES.parallel }, (_, i) => ({ email: 'busy@example.com', name: `name ${i}` })),
    );
    expect(results.every((r) => r.status === 200 && answer(r).created === false)).toBe(true);
    const [item] = await contactItems(factoryId);
    expect(item).toMatchObject({ createdAt: created.contact.createdAt, source: 'ads' });
    expect(item?.name).toMatch(/^name \d+$/);
  });
});
