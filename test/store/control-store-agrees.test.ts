import fc from 'fast-check';
import { applyClearTo, clearStillApplies } from '../../lambda/control/apply-clear';
import { DynamoControlStore } from '../../lambda/infrastructure/store/contacts/dynamo-control-store';
import { DynamoContactStore } from '../../lambda/infrastructure/store/contacts/dynamo-contact-store';
import { MemoryContactStore } from '../../lambda/infrastructure/memory/memory-contact-store';
import { MemoryControlStore } from '../../lambda/infrastructure/memory/memory-control-store';
import { companyId } from '../../lambda/contacts/domain/company-id';
import { planClear } from '../../lambda/control/plan-clear';
import type { ClearableField } from '../../lambda/contacts/domain/cleared';
import type { StoredContact } from '../../lambda/contacts/enrichment/ports';
import { putItem } from '../support/items';
import { newFactoryId, tables, testDoc } from '../support/local-api';

/**
 * The DynamoDB store writes a clear as one conditional UpdateItem;
 * clearStillApplies and applyClearTo state the same rule as functions. For
 * a clear planned from one state of a contact and written on another, the
 * store must apply it exactly when the rule says so, and leave the contact
 * the rule describes.
 */
const store = new DynamoControlStore(testDoc(), tables.contacts);
const ID = 'ct_00000000000000cc';

const value = fc.option(fc.constantFrom('A', 'B'), { nil: undefined });
const stateArb = fc.record({
  name: value,
  title: value,
  phone: value,
  page: value,
  location: value,
  companyId: fc.option(fc.constantFrom('co_000000000000000a', 'co_000000000000000b'), { nil: undefined }),
  cleared: fc.option(fc.constantFrom({}, { phone: { value: 'Z', at: '2026-11-01T00:00:00.000Z', by: 'arn:old' } }), { nil: undefined }),
  enrichment: fc.option(fc.record({ at: fc.constantFrom('2026-11-02T00:00:00.000Z', '2026-11-03T00:00:00.000Z'), title: value, location: value }), {
    nil: undefined,
  }),
});
type State = typeof stateArb extends fc.Arbitrary<infer T> ? T : never;

function contactOf(factoryId: string, state: State): StoredContact {
  const contact: StoredContact = {
    id: ID,
    factoryId,
    email: 'a@example.com',
    source: 'api',
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
  };
  for (const field of ['name', 'title', 'phone', 'page', 'location', 'companyId'] as const) {
    if (state[field] !== undefined) contact[field] = state[field];
  }
  if (state.cleared !== undefined) contact.cleared = state.cleared;
  if (state.enrichment !== undefined) {
    const fields: Record<string, string> = {};
    if (state.enrichment.title !== undefined) fields.title = state.enrichment.title;
    if (state.enrichment.location !== undefined) fields.location = state.enrichment.location;
    contact.enriched = true;
    contact.enrichment = { provider: 'P', at: state.enrichment.at, fields };
  }
  return contact;
}

test("the DynamoDB store applies a planned clear exactly when clearStillApplies says, with applyClearTo's result", async () => {
  await fc.assert(
    fc.asyncProperty(
      stateArb,
      stateArb,
      fc.subarray(['name', 'title', 'phone', 'page', 'location', 'companyId'] as ClearableField[], { minLength: 1 }),
      async (seen, now, fields) => {
        const factoryId = newFactoryId('clearagree');
        const planned = contactOf(factoryId, seen);
        const current = contactOf(factoryId, now);
        const plan = planClear(planned, { fields, by: 'arn:test', reason: 'why', at: '2026-11-21T00:00:00.000Z' });
        if (Object.keys(plan.remove).length === 0) return; // nothing to write: the store is never called
        const { id, ...item } = current;
        await putItem({ ...item, sk: id });
        const outcome = await store.applyClear({ factoryId, contactId: ID, plan });
        const stored = await store.getContact(factoryId, ID);
        if (clearStillApplies(current, plan)) {
          expect(outcome.outcome).toBe('applied');
          expect(stored).toEqual(applyClearTo(current, plan));
        } else {
          expect(outcome).toEqual({ outcome: 'conflict', current });
          expect(stored).toEqual(current);
        }
      },
    ),
    { numRuns: 60 },
  );
});

test('the DynamoDB store and the in-memory twin give the same company domains by id, and leave out an id of no company or of another factory', async () => {
  const factoryId = newFactoryId('domains');
  const other = newFactoryId('domains');
  const memoryContacts = new MemoryContactStore();
  const memory = new MemoryControlStore(memoryContacts);
  const contacts = new DynamoContactStore(testDoc(), tables.contacts);
  const companies = [
    { factoryId, domain: 'acme.io' },
    { factoryId, domain: 'xn--mnchen-3ya.de' },
    { factoryId: other, domain: 'other.example' },
  ].map(({ factoryId: owner, domain }) => ({ factoryId: owner, id: companyId(owner, domain), domain, name: domain, createdAt: '2026-11-01T00:00:00.000Z' }));
  for (const company of companies) {
    await contacts.createCompanyIfMissing(company);
    await memoryContacts.createCompanyIfMissing(company);
  }
  const asked = [...companies.map((company) => company.id), 'co_0000000000000000'];
  const expected = new Map([
    [companies[0]!.id, 'acme.io'],
    [companies[1]!.id, 'xn--mnchen-3ya.de'],
  ]);
  expect(await store.companyDomains(factoryId, asked)).toEqual(expected);
  expect(await memory.companyDomains(factoryId, asked)).toEqual(expected);
});
