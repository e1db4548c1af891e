import { handleControlRequest } from '../../lambda/control/handle-request';
import type { ClearWrite, ControlDependencies, ControlStore } from '../../lambda/control/ports';
import { runClear } from '../../lambda/control/run-clear';
import { upsertContact } from '../../lambda/contacts/domain/upsert-contact';
import { upsertBody } from '../../lambda/contacts/domain/upsert-input';
import { runBulk } from '../../lambda/contacts/enrichment/run-bulk';
import { runPass, type EnrichmentContext } from '../../lambda/contacts/enrichment/run-pass';
import { EmailNameHeuristic } from '../../lambda/contacts/enrichment/sources/email-name-heuristic';
import { MemoryContactStore } from '../../lambda/infrastructure/memory/memory-contact-store';
import { MemoryControlStore } from '../../lambda/infrastructure/memory/memory-control-store';
import { MemoryEnrichmentStore } from '../../lambda/infrastructure/memory/memory-enrichment-store';
import { MemoryReferenceDataset } from '../../lambda/infrastructure/memory/memory-reference-dataset';
import { MemoryReportStore } from '../../lambda/infrastructure/memory/memory-report-store';

/**
 * The control room's rules (clearing, lists, exports, companies) on
 * in-memory ports: no DynamoDB. test/control and test/reliability hold the
 * DynamoDB adapter to them on DynamoDB Local.
 */
const FACTORY = 'fac_rules';
const BY = 'arn:aws:sts::123456789012:assumed-role/ControlRoom/op';
let contacts: MemoryContactStore;
let enrichmentStore: MemoryEnrichmentStore;
let store: MemoryControlStore;
let dataset: MemoryReferenceDataset;
let enrichment: EnrichmentContext;
let deps: ControlDependencies;
let clock: number;
beforeEach(() => {
  contacts = new MemoryContactStore();
  enrichmentStore = new MemoryEnrichmentStore(contacts);
  store = new MemoryControlStore(contacts, enrichmentStore);
  dataset = new MemoryReferenceDataset();
  enrichment = { store: enrichmentStore, sources: [dataset, new EmailNameHeuristic()], provider: 'Platform', now: () => tick() };
  deps = { store, enrichment, issues: new MemoryReportStore(), now: () => tick() };
  clock = Date.parse('2026-11-21T09:00:00.000Z');
});
/** A clock that moves a second per reading: every write has its own time. */
const tick = () => new Date((clock += 1000));

const upsert = async (body: Record<string, unknown>) =>
  (await upsertContact(contacts, FACTORY, upsertBody.parse(body), { now: tick().toISOString(), creationToken: 't' })).contact;
const stored = async (id: string) => (await store.getContact(FACTORY, id))!;
const clear = (id: string, fields: ('title' | 'name' | 'phone' | 'page' | 'location' | 'companyId')[], reason?: string, on: ControlStore = store) =>
  runClear(on, FACTORY, id, { fields, by: BY, reason, at: tick().toISOString() });
const billed = async () => (await enrichmentStore.usage(FACTORY)).reduce((sum, usage) => sum + usage.billedPasses, 0);
const control = (request: Record<string, unknown>) => handleControlRequest(deps, { factoryId: FACTORY, ...request }, { principal: BY });

describe('clearing a field', () => {
  test('removes it, records what was cleared, when, by whom and why, moves updatedAt and leaves createdAt', async () => {
    const contact = await upsert({ email: 'c1@example.com', title: 'Wrong', name: 'Kept' });
    const result = await clear(contact.id, ['title'], 'ticket 1');
    expect(result).toMatchObject({ outcome: 'done', cleared: ['title'], alreadyEmpty: [], changed: [] });
    const after = await stored(contact.id);
    expect(after.title).toBeUndefined();
    expect(after).toMatchObject({ name: 'Kept', createdAt: contact.createdAt });
    expect(after.updatedAt > contact.updatedAt).toBe(true);
    expect(after.cleared).toEqual({ title: { value: 'Wrong', at: after.updatedAt, by: BY, reason: 'ticket 1' } });
  });

  test('an empty field is already clear: nothing is written, updatedAt stays', async () => {
    const contact = await upsert({ email: 'c2@example.com' });
    expect(await clear(contact.id, ['phone'])).toMatchObject({ cleared: [], alreadyEmpty: ['phone'] });
    expect(await stored(contact.id)).toEqual(contact);
  });

  test("a second clear of another field keeps the first one's record", async () => {
    const contact = await upsert({ email: 'c3@example.com', title: 'T', phone: '1' });
    await clear(contact.id, ['title']);
    await clear(contact.id, ['phone']);
    expect(Object.keys((await stored(contact.id)).cleared ?? {})).toEqual(['title', 'phone']);
  });

  test("a caller write landing between the clear's read and its write is kept, not cleared", async () => {
    const contact = await upsert({ email: 'c4@example.com', title: 'Old' });
    const racing = Object.create(store) as ControlStore;
    let raced = false;
    racing.applyClear = async (write: ClearWrite) => {
      if (!raced) {
        raced = true;
        await upsert({ email: 'c4@example.com', title: 'Caller' });
      }
      return store.applyClear(write);
    };
    expect(await clear(contact.id, ['title'], undefined, racing)).toMatchObject({ cleared: [], changed: ['title'] });
    expect((await stored(contact.id)).title).toBe('Caller');
  });

  test('two clears of different fields racing both keep their record', async () => {
    const contact = await upsert({ email: 'c5@example.com', title: 'T', phone: '1' });
    const racing = Object.create(store) as ControlStore;
    let raced = false;
    racing.applyClear = async (write: ClearWrite) => {
      if (!raced) {
        raced = true;
        await clear(contact.id, ['phone']);
      }
      return store.applyClear(write);
    };
    await clear(contact.id, ['title'], undefined, racing);
    expect(Object.keys((await stored(contact.id)).cleared ?? {}).sort()).toEqual(['phone', 'title']);
  });

  test("a pass landing between the clear's read and its write keeps what that pass found anew", async () => {
    dataset.add('c6@example.com', { title: 'Vendor V1' });
    const contact = await upsert({ email: 'c6@example.com' });
    await runPass(enrichment, FACTORY, contact.id, { bulk: false });
    dataset.add('c6@example.com', { title: 'Vendor V2' });
    const racing = Object.create(store) as ControlStore;
    let raced = false;
    racing.applyClear = async (write: ClearWrite) => {
      if (!raced) {
        raced = true;
        await runPass(enrichment, FACTORY, contact.id, { bulk: false });
      }
      return store.applyClear(write);
    };
    await clear(contact.id, ['title'], undefined, racing);
    const after = await stored(contact.id);
    expect(after.title).toBeUndefined();
    expect(after.enrichment?.fields).toEqual({ title: 'Vendor V2' });
  });

  test('an unknown contact is not found', async () => {
    expect(await clear('ct_0000000000000000', ['title'])).toEqual({ outcome: 'not-found' });
  });
});

describe('a cleared enrichment value', () => {
  async function enrichedWithWrongTitle(email: string) {
    dataset.add(email, { title: 'Wrong Title', location: 'Lima' });
    const contact = await upsert({ email });
    await runPass(enrichment, FACTORY, contact.id, { bulk: false });
    await clear(contact.id, ['title']);
    return contact;
  }

  test('is not refilled by a refresh, not billed for, and not recorded as found', async () => {
    const contact = await enrichedWithWrongTitle('e1@example.com');
    const pass = await runPass(enrichment, FACTORY, contact.id, { bulk: false });
    expect(pass).toMatchObject({ outcome: 'complete', ignored: ['title'], found: { location: 'Lima' } });
    const after = await stored(contact.id);
    expect(after.title).toBeUndefined();
    expect(after.enrichment?.fields).toEqual({ location: 'Lima' });
  });

  test('nor by a bulk run', async () => {
    const contact = await enrichedWithWrongTitle('e2@example.com');
    await runBulk(enrichment, FACTORY);
    expect((await stored(contact.id)).title).toBeUndefined();
  });

  test('a pass that finds only the cleared value is a free miss', async () => {
    dataset.add('e3@example.com', { title: 'Wrong Title' });
    const contact = await upsert({ email: 'e3@example.com' });
    await runPass(enrichment, FACTORY, contact.id, { bulk: false });
    await clear(contact.id, ['title']);
    const before = await billed();
    expect(await runPass(enrichment, FACTORY, contact.id, { bulk: false })).toMatchObject({ outcome: 'miss', billed: false, ignored: ['title'] });
    expect(await billed()).toBe(before);
  });

  test('is also dropped from enrichment.fields by the clear itself; enriched stays true', async () => {
    const contact = await enrichedWithWrongTitle('e4@example.com');
    const after = await stored(contact.id);
    expect(after).toMatchObject({ enriched: true, location: 'Lima' });
    expect(after.enrichment?.fields).toEqual({ location: 'Lima' });
  });

  test('a different value a source finds later fills the field', async () => {
    const contact = await enrichedWithWrongTitle('e5@example.com');
    dataset.add('e5@example.com', { title: 'Right Title' });
    await runPass(enrichment, FACTORY, contact.id, { bulk: false });
    expect((await stored(contact.id)).title).toBe('Right Title');
  });

  test('a later caller write fills the field as usual, and enrichment leaves it alone', async () => {
    const contact = await enrichedWithWrongTitle('e6@example.com');
    await upsert({ email: 'e6@example.com', title: 'Wrong Title' });
    expect((await stored(contact.id)).title).toBe('Wrong Title');
    await runPass(enrichment, FACTORY, contact.id, { bulk: false });
    expect((await stored(contact.id)).title).toBe('Wrong Title');
  });

  test("a clear landing between a pass's read and its write makes the pass plan again, without the cleared value", async () => {
    dataset.add('e7@example.com', { title: 'Wrong Title' });
    const contact = await upsert({ email: 'e7@example.com', title: 'Wrong Title' });
    const racing = Object.create(enrichmentStore) as MemoryEnrichmentStore;
    let raced = false;
    racing.applyPass = async (write) => {
      if (!raced) {
        raced = true;
        await clear(contact.id, ['title']);
      }
      return enrichmentStore.applyPass(write);
    };
    const pass = await runPass({ ...enrichment, store: racing }, FACTORY, contact.id, { bulk: false });
    expect(pass).toMatchObject({ ignored: ['title'] });
    expect((await stored(contact.id)).title).toBeUndefined();
  });
});

describe('a pass planned before a clear', () => {
  test('does not fill the cleared value when a caller wrote it and the operator cleared it in between', async () => {
    dataset.add('r1@example.com', { title: 'Same Title' });
    const contact = await upsert({ email: 'r1@example.com' });
    const racing = Object.create(enrichmentStore) as MemoryEnrichmentStore;
    let raced = false;
    racing.applyPass = async (write) => {
      if (!raced) {
        raced = true;
        await upsert({ email: 'r1@example.com', title: 'Same Title' });
        await clear(contact.id, ['title']);
      }
      return enrichmentStore.applyPass(write);
    };
    const pass = await runPass({ ...enrichment, store: racing }, FACTORY, contact.id, { bulk: false });
    expect(pass).toMatchObject({ ignored: ['title'] });
    expect((await stored(contact.id)).title).toBeUndefined();
  });
});

describe('clearing the company link', () => {
  test('unlinks the contact; a later upsert with a companyDomain links it again', async () => {
    const contact = await upsert({ email: 'l1@example.com', companyDomain: 'acme.io' });
    await clear(contact.id, ['companyId']);
    expect((await stored(contact.id)).companyId).toBeUndefined();
    expect((await store.contactsOfCompany(FACTORY, contact.companyId!, undefined, 10)).items).toEqual([]);
    const relinked = await upsert({ email: 'l1@example.com', companyDomain: 'other.io' });
    expect(relinked.companyId).toMatch(/^co_/);
    expect(relinked.companyId).not.toBe(contact.companyId);
  });
});

describe('lists', () => {
  async function population() {
    dataset.add('p0@example.com', { title: 'T' }).add('p3@example.com', { title: 'T' });
    const ids: string[] = [];
    for (let i = 0; i < 7; i += 1) ids.push((await upsert({ email: `p${i}@example.com`, companyDomain: i % 2 ? 'odd.io' : 'even.io' })).id);
    await runBulk(enrichment, FACTORY);
    return ids.sort();
  }

  async function all(request: Record<string, unknown>, key: 'contacts' | 'companies') {
    const seen: { id: string }[] = [];
    let cursor: string | undefined;
    do {
      const answer = await control({ ...request, ...(cursor ? { cursor } : {}) });
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
    const since = (await stored(enriched[1] as string)).updatedAt;
    for (const id of await all({ operation: 'contacts.list', updatedSince: since }, 'contacts')) {
      expect((await stored(id)).updatedAt >= since).toBe(true);
    }
  });

  test('companies, and the contacts of one company', async () => {
    const ids = await population();
    const companies = (await control({ operation: 'companies.list' })).body.companies as { id: string; domain: string }[];
    expect(companies.map((company) => company.domain)).toEqual(['even.io', 'odd.io']);
    const odd = await all({ operation: 'companies.contacts', companyId: companies[1]!.id, limit: 2 }, 'contacts');
    const even = await all({ operation: 'companies.contacts', companyId: companies[0]!.id, limit: 2 }, 'contacts');
    expect(odd).toHaveLength(3);
    expect([...odd, ...even].sort()).toEqual(ids);
  });
});

describe('exports', () => {
  test('CSV pages concatenated are one file: a header, then every contact once', async () => {
    for (let i = 0; i < 5; i += 1) await upsert({ email: `x${i}@example.com` });
    let text = '';
    let cursor: string | undefined;
    do {
      const answer = await control({ operation: 'contacts.export', format: 'csv', limit: 2, ...(cursor ? { cursor } : {}) });
      text += answer.body.data as string;
      cursor = answer.body.cursor as string | undefined;
    } while (cursor);
    const lines = text.split('\r\n').filter(Boolean);
    expect(lines[0]).toMatch(/^id,factoryId,email,/);
    expect(lines).toHaveLength(6);
  });

  test('a page ends early, with a cursor, rather than answer more than the function URL can carry', async () => {
    const page = `https://example.com/${'p'.repeat(2000)}`;
    for (let i = 0; i < 3000; i += 1) await upsert({ email: `big${i}@example.com`, page, title: '"'.repeat(200) });
    const first = await control({ operation: 'contacts.export', limit: 5000 });
    const size = Buffer.byteLength(JSON.stringify(first.body));
    expect(size).toBeLessThan(6 * 1024 * 1024);
    expect(first.body.count).toBeLessThan(3000);
    const second = await control({ operation: 'contacts.export', limit: 5000, cursor: first.body.cursor });
    expect((first.body.count as number) + (second.body.count as number)).toBe(3000);
  });
});

describe('answers', () => {
  test('an unknown contact is 404, a bad request 400, each as {"error"}', async () => {
    expect(await control({ operation: 'contacts.show', contactId: 'ct_0000000000000000' })).toMatchObject({
      status: 404,
      body: { error: `no contact ct_0000000000000000 in ${FACTORY}` },
    });
    expect(await control({ operation: 'contacts.list', cursor: 'nope' })).toMatchObject({ status: 400, body: { error: expect.any(String) } });
  });
});

describe('bulk runs from the control room', () => {
  test('enrichment.bulk answers how far the run is, from its cursor: rising between 0 and 1 page by page, 1 when done', async () => {
    for (let i = 0; i < 250; i += 1) await upsert({ email: `bulk${i}@example.com` });
    const shares: unknown[] = [];
    let answer = await control({ operation: 'enrichment.bulk', pages: 1 });
    while (answer.body.done !== true) {
      shares.push(answer.body.progress);
      answer = await control({ operation: 'enrichment.bulk', pages: 1, cursor: answer.body.cursor });
    }
    expect(shares).toHaveLength(2);
    const [first, second] = shares as number[];
    expect(first).toBeGreaterThan(0.2);
    expect(second).toBeGreaterThan(first as number);
    expect(second).toBeLessThan(1);
    expect(answer.body.progress).toBe(1);
  });
});

describe('the issue list on the in-memory store', () => {
  test('pages of 7 with the cursor reach each of 40 issues once, most recently seen first (three a second, ties by id, descending), and by events', async () => {
    const reports = new MemoryReportStore();
    deps = { ...deps, issues: reports };
    const at = Date.parse('2026-11-21T08:00:00.000Z');
    await reports.putEvents(
      Array.from({ length: 40 }, (_, i) => i).flatMap((i) =>
        Array.from({ length: (i % 4) + 1 }, (_, n) => ({
          factoryId: FACTORY,
          keyId: 'key_rules',
          origin: 'https://a.example',
          receivedAt: new Date(at + Math.floor(i / 3) * 1000).toISOString(),
          expiresAt: Math.floor(at / 1000) + 86_400 * 30,
          writeToken: `w${i}-${n}`,
          eventId: `00000000-0000-4000-8000-${String(i * 10 + n).padStart(12, '0')}`,
          type: 'error',
          message: `issue ${i}`,
          fingerprint: [`issue ${i}`],
          issueId: `iss_${String(i).padStart(20, '0')}`,
        })),
      ),
    );
    for (const sort of ['lastSeen', 'events'] as const) {
      const seen: { issueId: string; count: number; lastSeen: string }[] = [];
      let cursor: string | undefined;
      do {
        const { status, body } = await control({ operation: 'issues.list', sort, limit: 7, ...(cursor ? { cursor } : {}) });
        expect(status).toBe(200);
        seen.push(...(body.issues as typeof seen));
        cursor = body.cursor as string | undefined;
      } while (cursor);
      const key = (issue: { count: number; lastSeen: string }) => (sort === 'events' ? issue.count : issue.lastSeen);
      const expected = [...seen].sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : a.issueId < b.issueId ? 1 : -1));
      expect(new Set(seen.map((issue) => issue.issueId)).size).toBe(40);
      expect(seen.map((issue) => issue.issueId)).toEqual(expected.map((issue) => issue.issueId));
    }
  });
});
