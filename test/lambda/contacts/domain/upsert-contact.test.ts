import { upsertContact } from '../../../../lambda/contacts/domain/upsert-contact';
import { upsertBody, type UpsertInput } from '../../../../lambda/contacts/domain/upsert-input';
import { companyId } from '../../../../lambda/contacts/domain/company-id';
import { MemoryContactStore } from '../../../../lambda/infrastructure/memory/memory-contact-store';

/**
 * The upsert's rules (docs/contacts-api.md#upsert-a-contact--post-apiv1contacts) on the in-memory store: no DynamoDB.
 * test/api/*.test.ts hold the same rules through HTTP on DynamoDB Local.
 */
const FACTORY = 'fac_rules';
let store: MemoryContactStore;
let clock: number;
beforeEach(() => {
  store = new MemoryContactStore();
  clock = Date.parse('2026-11-25T10:00:00Z');
});

const input = (body: Record<string, unknown>): UpsertInput => upsertBody.parse(body);
const upsert = (body: Record<string, unknown>) => {
  clock += 1000;
  return upsertContact(store, FACTORY, input(body), { now: new Date(clock).toISOString(), creationToken: `t${clock}` });
};

describe('upsert rules', () => {
  test('the first write creates, the next one with the same email in other case updates the same record', async () => {
    const first = await upsert({ email: 'Ada@Example.com', name: 'Ada' });
    const second = await upsert({ email: 'ada@example.COM', title: 'CTO' });
    expect(first.created).toBe(true);
    expect(second.created).toBe(false);
    expect(second.contact.id).toBe(first.contact.id);
    expect(store.contacts.size).toBe(1);
  });

  test('omitted fields keep their stored value; sent ones overwrite', async () => {
    await upsert({ email: 'a@example.com', name: 'Ada', title: 'CTO', phone: '1' });
    const { contact } = await upsert({ email: 'a@example.com', title: 'CEO' });
    expect(contact).toMatchObject({ name: 'Ada', title: 'CEO', phone: '1' });
  });

  test('createdAt is set once; updatedAt moves on every write', async () => {
    const first = await upsert({ email: 'a@example.com' });
    const second = await upsert({ email: 'a@example.com', name: 'x' });
    expect(second.contact.createdAt).toBe(first.contact.createdAt);
    expect(second.contact.updatedAt > first.contact.updatedAt).toBe(true);
  });

  test('source defaults to api on creation, is kept when omitted, replaced when sent', async () => {
    expect((await upsert({ email: 'a@example.com' })).contact.source).toBe('api');
    expect((await upsert({ email: 'a@example.com', source: 'ads' })).contact.source).toBe('ads');
    expect((await upsert({ email: 'a@example.com' })).contact.source).toBe('ads');
  });

  test('the company link is set once and never reassigned', async () => {
    const first = await upsert({ email: 'a@example.com', companyDomain: 'acme.io' });
    const second = await upsert({ email: 'a@example.com', companyDomain: 'other.io' });
    expect(first.contact.companyId).toBe(companyId(FACTORY, 'acme.io'));
    expect(second.contact.companyId).toBe(first.contact.companyId);
  });

  test('a contact already linked elsewhere creates no company for the domain it names', async () => {
    await upsert({ email: 'a@example.com', companyDomain: 'acme.io' });
    await upsert({ email: 'a@example.com', companyDomain: 'other.io' });
    expect([...store.companies.values()].map((company) => company.domain)).toEqual(['acme.io']);
  });

  test('one company per domain: the first writer names it, later names change nothing', async () => {
    await upsert({ email: 'a@example.com', companyDomain: 'https://www.Acme.io/', company: 'Acme' });
    await upsert({ email: 'b@example.com', companyDomain: 'acme.io', company: 'ACME Corp' });
    expect([...store.companies.values()]).toEqual([expect.objectContaining({ domain: 'acme.io', name: 'Acme' })]);
  });

  test('a new company without a name is named after its domain; a name without a domain creates none', async () => {
    await upsert({ email: 'a@example.com', company: 'Nameless' });
    expect(store.companies.size).toBe(0);
    await upsert({ email: 'b@example.com', companyDomain: 'acme.io' });
    expect([...store.companies.values()][0]?.name).toBe('acme.io');
  });
});
