import { runBulk } from '../../../lambda/contacts/enrichment/run-bulk';
import { CONTROL_FACTORY, memoryControlRoom } from '../../support/control-memory';

/**
 * The contacts and companies operations (lists, exports, answers) on in-memory ports, as the function runs them.
 */
const room = memoryControlRoom();

describe('lists', () => {
  async function population() {
    room.dataset.add('p0@example.com', { title: 'T' }).add('p3@example.com', { title: 'T' });
    const ids: string[] = [];
    for (let i = 0; i < 7; i += 1) ids.push((await room.upsert({ email: `p${i}@example.com`, companyDomain: i % 2 ? 'odd.io' : 'even.io' })).id);
    await runBulk(room.enrichment, CONTROL_FACTORY);
    return ids.sort();
  }

  async function all(request: Record<string, unknown>, key: 'contacts' | 'companies') {
    const seen: { id: string }[] = [];
    let cursor: string | undefined;
    do {
      const answer = await room.control({ ...request, ...(cursor ? { cursor } : {}) });
      expect(answer.status).toBe(200);
      seen.push(...(answer.body[key] as { id: string }[]));
      cursor = answer.body.cursor as string | undefined;
    } while (cursor);
    return seen.map((item) => item.id);
  }

  test('pages of any size cover every contact once, in id order', async () => {
    const ids = await population();
    for (const limit of [1, 2, 3, 7, 100]) expect(await all({ operation: 'contacts.list', limit }, 'contacts')).toEqual(ids);
  });

  test('filters by enriched and updated-since, page by page', async () => {
    const ids = await population();
    const enriched = await all({ operation: 'contacts.list', enriched: true, limit: 1 }, 'contacts');
    const rest = await all({ operation: 'contacts.list', enriched: false, limit: 2 }, 'contacts');
    expect(enriched).toHaveLength(2);
    expect([...enriched, ...rest].sort()).toEqual(ids);
    const since = (await room.stored(enriched[1] as string)).updatedAt;
    for (const id of await all({ operation: 'contacts.list', updatedSince: since }, 'contacts')) {
      expect((await room.stored(id)).updatedAt >= since).toBe(true);
    }
  });

  test('companies, and the contacts of one company', async () => {
    const ids = await population();
    const companies = (await room.control({ operation: 'companies.list' })).body.companies as { id: string; domain: string }[];
    expect(companies.map((company) => company.domain)).toEqual(['even.io', 'odd.io']);
    const odd = await all({ operation: 'companies.contacts', companyId: companies[1]!.id, limit: 2 }, 'contacts');
    const even = await all({ operation: 'companies.contacts', companyId: companies[0]!.id, limit: 2 }, 'contacts');
    expect(odd).toHaveLength(3);
    expect([...odd, ...even].sort()).toEqual(ids);
  });
});

describe('exports', () => {
  test('CSV pages concatenated are one file: a header, then every contact once', async () => {
    for (let i = 0; i < 5; i += 1) await room.upsert({ email: `x${i}@example.com` });
    let text = '';
    let cursor: string | undefined;
    do {
      const answer = await room.control({ operation: 'contacts.export', format: 'csv', limit: 2, ...(cursor ? { cursor } : {}) });
      text += answer.body.data as string;
      cursor = answer.body.cursor as string | undefined;
    } while (cursor);
    const lines = text.split('\r\n').filter(Boolean);
    expect(lines[0]).toMatch(/^id,factoryId,email,/);
    expect(lines).toHaveLength(6);
  });

  test('a page ends early, with a cursor, rather than answer more than the function URL can carry', async () => {
    const page = `https://example.com/${'p'.repeat(2000)}`;
    for (let i = 0; i < 3000; i += 1) await room.upsert({ email: `big${i}@example.com`, page, title: '"'.repeat(200) });
    const first = await room.control({ operation: 'contacts.export', limit: 5000 });
    const size = Buffer.byteLength(JSON.stringify(first.body));
    expect(size).toBeLessThan(6 * 1024 * 1024);
    expect(first.body.count).toBeLessThan(3000);
    const second = await room.control({ operation: 'contacts.export', limit: 5000, cursor: first.body.cursor });
    expect((first.body.count as number) + (second.body.count as number)).toBe(3000);
  });
});

describe('answers', () => {
  test('an unknown contact is 404, a bad request 400, each as {"error"}', async () => {
    expect(await room.control({ operation: 'contacts.show', contactId: 'ct_0000000000000000' })).toMatchObject({
      status: 404,
      body: { error: `no contact ct_0000000000000000 in ${CONTROL_FACTORY}` },
    });
    expect(await room.control({ operation: 'contacts.list', cursor: 'nope' })).toMatchObject({ status: 400, body: { error: expect.any(String) } });
  });
});

describe('a contact and its company', () => {
  test("contacts.list names each linked contact's company by its domain, from one lookup per company on the page", async () => {
    const asked: string[][] = [];
    const linked = await room.upsert({ email: 'linked@example.com', companyDomain: 'acme.io' });
    await room.upsert({ email: 'alone@example.com' });
    const domains = room.store.companyDomains.bind(room.store);
    room.store.companyDomains = async (factoryId, ids) => {
      asked.push([...ids]);
      return domains(factoryId, ids);
    };
    const { body } = await room.control({ operation: 'contacts.list' });
    const contacts = body.contacts as { id: string; companyDomain?: string }[];
    expect(contacts.find((contact) => contact.id === linked.id)?.companyDomain).toBe('acme.io');
    expect(contacts.filter((contact) => contact.companyDomain === undefined)).toHaveLength(1);
    expect(asked).toEqual([[linked.companyId]]);
  });

  test('a page without a linked contact asks for no domain', async () => {
    await room.upsert({ email: 'alone@example.com' });
    room.store.companyDomains = async () => {
      throw new Error('not asked');
    };
    expect((await room.control({ operation: 'contacts.list' })).status).toBe(200);
  });

  test('contacts.show answers the contact, its company and its pass markers', async () => {
    const contact = await room.upsert({ email: 'shown@example.com', companyDomain: 'acme.io', company: 'Acme' });
    const { status, body } = await room.control({ operation: 'contacts.show', contactId: contact.id });
    expect(status).toBe(200);
    expect(body).toMatchObject({ contact: { id: contact.id, email: 'shown@example.com' }, company: { domain: 'acme.io', name: 'Acme' }, passes: [] });
  });

  test('contacts.clear through the operation records the caller as who cleared, and refuses a field it cannot clear', async () => {
    const contact = await room.upsert({ email: 'cleared@example.com', title: 'Wrong' });
    const cleared = await room.control({ operation: 'contacts.clear', contactId: contact.id, fields: ['title'], reason: 'ticket 7' });
    expect(cleared.status).toBe(200);
    expect((await room.stored(contact.id)).cleared?.title).toMatchObject({ value: 'Wrong', by: expect.stringMatching(/^arn:aws:sts::/), reason: 'ticket 7' });
    expect(await room.control({ operation: 'contacts.clear', contactId: contact.id, fields: ['email'] })).toMatchObject({ status: 400 });
  });
});
