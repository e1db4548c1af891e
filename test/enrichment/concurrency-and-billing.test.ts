import { TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { InvalidCursorError } from '../../lambda/kernel/errors';
import { DynamoEnrichmentStore } from '../../lambda/infrastructure/store/contacts/dynamo-enrichment-store';
import type { PassWrite } from '../../lambda/contacts/enrichment/ports';
import { runBulk, type BulkSummary } from '../../lambda/contacts/enrichment/run-bulk';
import { runPass } from '../../lambda/contacts/enrichment/run-pass';
import { billedPasses, enrichmentContext, referencePerson, uniqueEmail } from '../support/enrichment';
import { contactItems } from '../support/items';
import { newFactoryId, newTenant, startLocalApi, tables, testDoc, type LocalApi } from '../support/local-api';

const PARALLEL = 25;

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
});
afterAll(() => api.close());

/** A fresh factory; upsert and read give the contact, as the API returns it. */
async function factory() {
  const tenant = await newTenant(api, 'billing');
  return {
    factoryId: tenant.factoryId,
    upsert: async (body: Record<string, unknown>) => (await tenant.upsert(body)).json.contact,
    read: async (id: string) => (await tenant.read(id)).json.contact,
  };
}

/** `count` contacts, the first `withFinds` of them known to the reference dataset. */
async function population(upsert: (body: Record<string, unknown>) => Promise<{ id: string }>, count: number, withFinds: number) {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const email = uniqueEmail(`pop${i}-`);
    if (i < withFinds) await referencePerson(email, { title: `Title ${i}`, location: 'Berlin' });
    ids.push((await upsert({ email })).id);
  }
  return ids;
}

/**
 * The real store with a fault injected around it: `caller` (an upsert) runs
 * just before the pass's first write, as if it had raced it.
 */
function racingStore(caller: () => Promise<unknown>) {
  let raced = false;
  class RacingStore extends DynamoEnrichmentStore {
    override async applyPass(write: PassWrite) {
      if (!raced) {
        raced = true;
        await caller();
      }
      return super.applyPass(write);
    }
  }
  return new RacingStore(testDoc(), tables.contacts);
}

const add = (a: BulkSummary, b: BulkSummary): BulkSummary => ({
  seen: a.seen + b.seen,
  skipped: a.skipped + b.skipped,
  enriched: a.enriched + b.enriched,
  complete: a.complete + b.complete,
  misses: a.misses + b.misses,
  billed: a.billed + b.billed,
});

describe('a caller upsert racing a pass', () => {
  test("lands between the pass reading and writing: the pass re-plans and keeps the caller's value", async () => {
    const { factoryId, upsert, read } = await factory();
    const email = uniqueEmail();
    await referencePerson(email, { title: 'Vendor Title', location: 'Rome' });
    const contact = await upsert({ email });

    const store = racingStore(() => upsert({ email, title: 'Caller Title' }));
    const result = await runPass(enrichmentContext({ store }), factoryId, contact.id, { bulk: false });
    expect(result.outcome).toBe('enriched');
    const after = await read(contact.id);
    expect(after).toMatchObject({ title: 'Caller Title', location: 'Rome', enriched: true });
    expect(after.enrichment.fields).toEqual({ title: 'Vendor Title', location: 'Rome' });
    expect(await billedPasses(factoryId)).toBe(1);
  });

  test(`${PARALLEL} passes and ${PARALLEL} caller writes at once: the caller's value always wins, every pass billed once`, async () => {
    const { factoryId, upsert, read } = await factory();
    const email = uniqueEmail();
    await referencePerson(email, { name: 'Vendor Name', title: 'Vendor Title' });
    const contact = await upsert({ email });
    const context = enrichmentContext();
    const [passes] = await Promise.all([
      Promise.all(Array.from({ length: PARALLEL }, () => runPass(context, factoryId, contact.id, { bulk: false }))),
      Promise.all(Array.from({ length: PARALLEL }, () => upsert({ email, name: 'Caller Name' }))),
    ]);
    const after = await read(contact.id);
    expect(after.name).toBe('Caller Name');
    expect(after.title).toBe('Vendor Title');
    expect(await billedPasses(factoryId)).toBe(passes.filter((p) => p.billed).length);
    expect(passes.every((p) => p.billed)).toBe(true);
  });
});

describe('billing is exact under retries', () => {
  test('an invocation retried with the same passId is billed once', async () => {
    const { factoryId, upsert } = await factory();
    const email = uniqueEmail();
    await referencePerson(email, { location: 'Paris' });
    const contact = await upsert({ email });
    const context = enrichmentContext();
    const passId = '6f1c0b9e-5a3d-4c2e-9a7b-1d2e3f4a5b6c';
    const first = await runPass(context, factoryId, contact.id, { bulk: false, passId });
    const retry = await runPass(context, factoryId, contact.id, { bulk: false, passId });
    expect([first.outcome, retry.outcome]).toEqual(['enriched', 'duplicate']);
    expect([first.billed, retry.billed]).toEqual([true, false]);
    expect(await billedPasses(factoryId)).toBe(1);
  });

  test('a retried passId is billed once even when the first invocation had to re-plan around a caller write', async () => {
    const { factoryId, upsert } = await factory();
    const email = uniqueEmail();
    await referencePerson(email, { title: 'Vendor', location: 'Porto' });
    const contact = await upsert({ email });
    const passId = 'a3f1c2d4-0000-4000-8000-000000000001';
    const racing = enrichmentContext({ store: racingStore(() => upsert({ email, title: 'Caller' })) });
    const first = await runPass(racing, factoryId, contact.id, { bulk: false, passId });
    const retry = await runPass(enrichmentContext(), factoryId, contact.id, { bulk: false, passId });
    expect([first.outcome, retry.outcome]).toEqual(['enriched', 'duplicate']);
    expect(await billedPasses(factoryId)).toBe(1);
  });

  test('one passId on two contacts is two passes', async () => {
    const { factoryId, upsert } = await factory();
    const context = enrichmentContext();
    const passId = 'a3f1c2d4-0000-4000-8000-000000000002';
    for (const location of ['Graz', 'Linz']) {
      const email = uniqueEmail();
      await referencePerson(email, { location });
      const contact = await upsert({ email });
      expect((await runPass(context, factoryId, contact.id, { bulk: false, passId })).outcome).toBe('enriched');
    }
    expect(await billedPasses(factoryId)).toBe(2);
  });

  test('a transaction sent again after its answer was lost (as the SDK retries) is applied and billed once', async () => {
    const { factoryId, upsert } = await factory();
    const email = uniqueEmail();
    await referencePerson(email, { title: 'Once' });
    const contact = await upsert({ email });
    const doc = testDoc();
    let resent = 0;
    // Around the real client: the first transaction lands, its answer is "lost", and the same request goes again.
    const lossy = {
      send: async (command: unknown) => {
        if (command instanceof TransactWriteCommand && resent === 0) {
          resent += 1;
          await doc.send(command);
        }
        return doc.send(command as never);
      },
    } as unknown as DynamoDBDocumentClient;
    const store = new DynamoEnrichmentStore(lossy, tables.contacts);
    const result = await runPass(enrichmentContext({ store }), factoryId, contact.id, { bulk: false });
    expect(resent).toBe(1);
    expect(result).toMatchObject({ outcome: 'enriched', billed: true });
    expect(await billedPasses(factoryId)).toBe(1);
  });

  test(`${PARALLEL} concurrent refreshes of one contact are ${PARALLEL} passes, each billed exactly once`, async () => {
    const { factoryId, upsert } = await factory();
    const email = uniqueEmail();
    await referencePerson(email, { location: 'Madrid' });
    const contact = await upsert({ email });
    const context = enrichmentContext();
    const results = await Promise.all(Array.from({ length: PARALLEL }, () => runPass(context, factoryId, contact.id, { bulk: false })));
    expect(results.filter((r) => r.billed)).toHaveLength(PARALLEL);
    expect(await billedPasses(factoryId)).toBe(PARALLEL);
  });
});

describe('bulk runs', () => {
  test('two overlapping bulk runs enrich and bill each contact once; misses stay free', async () => {
    const { factoryId, upsert, read } = await factory();
    const ids = await population(upsert, 30, 20);
    const context = enrichmentContext();
    const [a, b] = await Promise.all([
      runBulk(context, factoryId, { pageSize: 7, concurrency: 4 }),
      runBulk(context, factoryId, { pageSize: 5, concurrency: 6 }),
    ]);
    const total = add(a.summary, b.summary);
    expect(total.billed).toBe(20);
    expect(total.enriched).toBe(20);
    expect(await billedPasses(factoryId)).toBe(20);
    const enriched = await Promise.all(ids.map(async (id) => (await read(id)).enriched === true));
    expect(enriched.filter(Boolean)).toHaveLength(20);
  });

  test('skip contacts already enriched, and do not bill them again', async () => {
    const { factoryId, upsert } = await factory();
    await population(upsert, 12, 8);
    const context = enrichmentContext();
    const first = await runBulk(context, factoryId);
    expect(first.summary).toEqual({ seen: 12, skipped: 0, enriched: 8, complete: 0, misses: 4, billed: 8 });
    await population(upsert, 3, 3);
    const second = await runBulk(context, factoryId);
    expect(second.summary).toEqual({ seen: 15, skipped: 8, enriched: 3, complete: 0, misses: 4, billed: 3 });
    expect(await billedPasses(factoryId)).toBe(11);
  });

  test('also skip contacts billed before without being enriched (their fields were all set)', async () => {
    const { factoryId, upsert } = await factory();
    const email = uniqueEmail();
    await referencePerson(email, { title: 'Vendor' });
    await upsert({ email, title: 'Set by caller' });
    const context = enrichmentContext();
    expect((await runBulk(context, factoryId)).summary).toMatchObject({ complete: 1, billed: 1 });
    expect((await runBulk(context, factoryId)).summary).toMatchObject({ skipped: 1, billed: 0 });
  });

  test('continue from a cursor, page by page, until done', async () => {
    const { factoryId, upsert } = await factory();
    await population(upsert, 25, 25);
    const context = enrichmentContext();
    let cursor: string | undefined;
    let invocations = 0;
    let summary: BulkSummary = { seen: 0, skipped: 0, enriched: 0, complete: 0, misses: 0, billed: 0 };
    for (;;) {
      invocations += 1;
      const result = await runBulk(context, factoryId, { cursor, pageSize: 10, keepGoing: () => false });
      summary = add(summary, result.summary);
      if (result.done) {
        expect(result.cursor).toBeUndefined();
        break;
      }
      expect(typeof result.cursor).toBe('string');
      cursor = result.cursor;
    }
    expect(invocations).toBe(3);
    expect(summary).toMatchObject({ seen: 25, enriched: 25, billed: 25 });
    expect((await contactItems(factoryId)).every((item) => item.enriched === true)).toBe(true);
  });

  test('refuse a cursor of another factory, or one not handed out', async () => {
    const a = await factory();
    await population(a.upsert, 3, 0);
    const context = enrichmentContext();
    const first = await runBulk(context, a.factoryId, { pageSize: 1, keepGoing: () => false });
    await expect(runBulk(context, newFactoryId('other'), { cursor: first.cursor })).rejects.toThrow(InvalidCursorError);
    await expect(runBulk(context, a.factoryId, { cursor: 'bm90LWEtY3Vyc29y' })).rejects.toThrow(/cursor is not one this service returned/);
  });
});
