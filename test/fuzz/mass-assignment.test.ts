import fc from 'fast-check';
import type { ApiHandler } from '../../lambda/infrastructure/http/pipeline';
import { forbiddenFields, validUpsert } from '../../tools/fuzz/bodies';
import { companyIdOf, contactIdOf } from '../../tools/fuzz/oracle';
import { partitionSnapshot } from '../../tools/fuzz/partition';
import { apiRequest } from '../../tools/fuzz/request';
import { invoke } from '../../tools/fuzz/transport';
import { withCase } from '../../tools/fuzz/values';
import { fuzzHandler } from '../../tools/fuzz/world';
import { getItem } from '../support/items';
import { issueKey, newFactoryId, tables, testDoc } from '../support/local-api';

/** A mask for `withCase`: every letter that has a simple capital (toUpperCase would turn ı into I and ß into SS: other addresses). */
const ALL_CAPITALS = 0x7fffffff;

/** What a stored contact item may hold after API writes: nothing a body named beyond the documented fields. */
const STORED = new Set(['factoryId', 'sk', 'email', 'name', 'title', 'phone', 'page', 'source', 'companyId', 'createdAt', 'updatedAt', 'creationToken']);

const doc = testDoc({ requestTimeoutMs: 10_000 });
let handler: ApiHandler;
/** A factory whose ids the bodies name: nothing may land there. */
let victim: { factoryId: string; contactId: string; companyId: string };

const post = async (key: string, body: unknown) => {
  const res = await invoke(handler, apiRequest('POST', '/api/v1/contacts', key, body));
  return { status: res.status, json: JSON.parse(res.body) as { contact: Record<string, unknown>; created: boolean } };
};

beforeAll(async () => {
  handler = fuzzHandler(doc, tables);
  const factoryId = newFactoryId('victim');
  const { contact } = (await post((await issueKey(factoryId)).key, { email: 'victim@example.com', companyDomain: 'victim.example' })).json;
  victim = { factoryId, contactId: String(contact.id), companyId: String(contact.companyId) };
});

const within = (iso: unknown, from: number, to: number) => {
  const at = Date.parse(String(iso));
  return at >= from - 5 && at <= to + 5;
};

test('no body field sets id, factoryId, companyId, createdAt, updatedAt, enriched or enrichment, on creation or on update', async () => {
  const before = await partitionSnapshot(doc, tables.contacts, victim.factoryId);
  const foreign = [victim.factoryId, victim.contactId, victim.companyId];
  await fc.assert(
    fc.asyncProperty(
      validUpsert([], foreign),
      validUpsert([], foreign),
      forbiddenFields(foreign, true),
      forbiddenFields(foreign, true),
      async (first, second, taint1, taint2) => {
        const factoryId = newFactoryId('mass');
        const { key } = await issueKey(factoryId);
        const t0 = Date.now();
        const created = await post(key, { ...first.value, ...taint1 });
        const t1 = Date.now();
        expect(created.status).toBe(201);
        const c1 = created.json.contact;
        expect(c1).toMatchObject({ id: contactIdOf(factoryId, first.email), factoryId, email: first.email });
        expect(c1.companyId).toBe(first.domain === undefined ? undefined : companyIdOf(factoryId, first.domain));
        expect(within(c1.createdAt, t0, t1) && c1.updatedAt === c1.createdAt).toBe(true);
        expect(c1).not.toHaveProperty('enriched');
        expect(c1).not.toHaveProperty('enrichment');

        // The same contact again (its email in another case), with other forbidden values.
        const t2 = Date.now();
        const updated = await post(key, { ...second.value, ...taint2, email: withCase(first.email, ALL_CAPITALS) });
        const t3 = Date.now();
        expect(updated.status).toBe(200);
        const c2 = updated.json.contact;
        expect(c2).toMatchObject({ id: c1.id, factoryId, email: first.email, createdAt: c1.createdAt });
        // The link is set once: the first domain's company, or the second's if the first sent none.
        const domain = first.domain ?? second.domain;
        expect(c2.companyId).toBe(domain === undefined ? undefined : companyIdOf(factoryId, domain));
        expect(within(c2.updatedAt, t2, t3)).toBe(true);
        expect(c2).not.toHaveProperty('enriched');
        expect(c2).not.toHaveProperty('enrichment');

        const read = await invoke(handler, apiRequest('GET', `/api/v1/contacts/${String(c1.id)}`, key));
        expect(JSON.parse(read.body)).toEqual({ contact: c2 });
        const item = (await getItem(factoryId, String(c1.id))) ?? {};
        expect(Object.keys(item).filter((name) => !STORED.has(name))).toEqual([]);
      },
    ),
    { numRuns: 15 },
  );
  // Nothing the bodies said about another factory reached it.
  expect(await partitionSnapshot(doc, tables.contacts, victim.factoryId)).toBe(before);
}, 60_000);
