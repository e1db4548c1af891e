import fc from 'fast-check';
import type { ApiHandler } from '../../lambda/infrastructure/http/pipeline';
import { companyIdOf, contactIdOf } from '../../tools/fuzz/oracle';
import { partitionSnapshot } from '../../tools/fuzz/partition';
import { apiRequest } from '../../tools/fuzz/request';
import { invoke } from '../../tools/fuzz/transport';
import { companyDomain, storedEmail, withCase } from '../../tools/fuzz/values';
import { fuzzHandler } from '../../tools/fuzz/world';
import { companyItems, contactItems } from '../support/items';
import { issueKey, newFactoryId, tables, testDoc } from '../support/local-api';

const doc = testDoc({ requestTimeoutMs: 10_000 });
let handler: ApiHandler;
beforeAll(() => {
  handler = fuzzHandler(doc, tables);
});

async function tenant(label: string) {
  const factoryId = newFactoryId(label);
  const { key } = await issueKey(factoryId);
  const call = async (method: string, target: string, body?: unknown) => {
    const res = await invoke(handler, apiRequest(method, target, key, body));
    return { status: res.status, json: JSON.parse(res.body) as { contact?: Record<string, unknown> } };
  };
  return { factoryId, call };
}

const scenario = fc.record({
  emailsA: fc.uniqueArray(storedEmail, { minLength: 1, maxLength: 3 }),
  emailsB: fc.uniqueArray(storedEmail, { maxLength: 2 }),
  /** B also writes A's first address (in any case). */
  sharesEmail: fc.boolean(),
  domain: companyDomain,
  mask: fc.nat(),
});

test('for any two factories and emails, one factory’s key never reads or changes the other’s contacts or companies', async () => {
  await fc.assert(
    fc.asyncProperty(scenario, async ({ emailsA, emailsB, sharesEmail, domain, mask }) => {
      const a = await tenant('iso_a');
      const b = await tenant('iso_b');
      for (const email of emailsA) {
        expect((await a.call('POST', '/api/v1/contacts', { email, name: 'A', companyDomain: domain.raw, company: 'A Co' })).status).toBe(201);
      }
      const before = await partitionSnapshot(doc, tables.contacts, a.factoryId);
      const aIds = emailsA.map((email) => contactIdOf(a.factoryId, email));

      // B writes its own contacts (one maybe with A's address), naming A's ids wherever a body could.
      const shared = sharesEmail ? [withCase(emailsA[0] as string, mask)] : [];
      const bEmails = [...new Set([...emailsB.filter((e) => !emailsA.includes(e)), ...shared])];
      for (const email of bEmails) {
        const res = await b.call('POST', '/api/v1/contacts', {
          email,
          name: 'B',
          companyDomain: domain.raw,
          company: 'B Co',
          factoryId: a.factoryId,
          id: aIds[0],
          companyId: companyIdOf(a.factoryId, domain.stored),
        });
        expect(res.status).toBe(201); // B's own contact, never an update of A's
        expect(res.json.contact).toMatchObject({ factoryId: b.factoryId, companyId: companyIdOf(b.factoryId, domain.stored) });
      }
      // B reads A's contacts by id and by email: 404, or B's own contact for the shared address.
      for (const [i, id] of aIds.entries()) {
        expect((await b.call('GET', `/api/v1/contacts/${id}`)).status).toBe(404);
        const byEmail = await b.call('GET', `/api/v1/contacts?email=${encodeURIComponent(emailsA[i] as string)}`);
        if (sharesEmail && i === 0) expect(byEmail.json.contact).toMatchObject({ factoryId: b.factoryId, name: 'B' });
        else expect(byEmail.status).toBe(404);
      }

      // A's partition is exactly as A left it; B's holds B's contacts and B's company.
      expect(await partitionSnapshot(doc, tables.contacts, a.factoryId)).toBe(before);
      for (const id of aIds) expect((await a.call('GET', `/api/v1/contacts/${id}`)).json.contact).toMatchObject({ factoryId: a.factoryId, name: 'A' });
      expect((await contactItems(b.factoryId)).length).toBe(bEmails.length);
      const bCompanies = await companyItems(b.factoryId);
      expect(bCompanies.map((c) => c.name)).toEqual(bEmails.length > 0 ? ['B Co'] : []);
    }),
    { numRuns: 10 },
  );
}, 60_000);
