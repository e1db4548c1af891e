import { addResult, emptySummary, mapWithConcurrency, runBulk } from '../../../../lambda/contacts/enrichment/run-bulk';
import { upsertContact } from '../../../../lambda/contacts/domain/upsert-contact';
import { upsertBody } from '../../../../lambda/contacts/domain/upsert-input';
import { runPass, type EnrichmentContext } from '../../../../lambda/contacts/enrichment/run-pass';
import { EmailNameHeuristic } from '../../../../lambda/contacts/enrichment/sources/email-name-heuristic';
import { MemoryContactStore } from '../../../../lambda/infrastructure/memory/memory-contact-store';
import { MemoryEnrichmentStore } from '../../../../lambda/infrastructure/memory/memory-enrichment-store';
import { MemoryReferenceDataset } from '../../../../lambda/infrastructure/memory/memory-reference-dataset';

/** Bulk runs on in-memory ports; on DynamoDB Local, with billing under concurrency: test/enrichment/concurrency-and-billing.test.ts. */
const FACTORY = 'fac_rules';
let contacts: MemoryContactStore;
let store: MemoryEnrichmentStore;
let dataset: MemoryReferenceDataset;
let context: EnrichmentContext;
beforeEach(() => {
  contacts = new MemoryContactStore();
  store = new MemoryEnrichmentStore(contacts);
  dataset = new MemoryReferenceDataset();
  context = { store, sources: [dataset, new EmailNameHeuristic()], provider: 'Platform' };
});

const upsert = async (body: Record<string, unknown>) =>
  (await upsertContact(contacts, FACTORY, upsertBody.parse(body), { now: new Date().toISOString(), creationToken: 't' })).contact;
const billed = async () => (await store.usage(FACTORY)).reduce((sum, usage) => sum + usage.billedPasses, 0);

describe('a bulk run', () => {
  test('skips contacts already enriched or billed and never bill them again', async () => {
    dataset.add('p4@example.com', { title: 'CTO' });
    const enriched = await upsert({ email: 'p4@example.com' });
    await runPass(context, FACTORY, enriched.id, { bulk: false });
    await upsert({ email: 'nobody2@example.com' });
    const { summary, done } = await runBulk(context, FACTORY, { pageSize: 1 });
    expect(done).toBe(true);
    expect(summary).toMatchObject({ seen: 2, skipped: 1, misses: 1, billed: 0 });
    expect(await billed()).toBe(1);
  });

  test('stops with a cursor when told to, and the next run goes on from it to the end, each contact seen once', async () => {
    for (const n of [1, 2, 3]) await upsert({ email: `nobody${n}@example.com` });
    const first = await runBulk(context, FACTORY, { pageSize: 1, keepGoing: () => false });
    expect([first.done, first.summary.seen, typeof first.cursor]).toEqual([false, 1, 'string']);
    const rest = await runBulk(context, FACTORY, { pageSize: 1, cursor: first.cursor });
    expect([rest.done, rest.summary.seen, rest.cursor]).toEqual([true, 2, undefined]);
  });

  test('reports its running totals after each page', async () => {
    for (const n of [1, 2]) await upsert({ email: `nobody${n}@example.com` });
    const pages: number[] = [];
    await runBulk(context, FACTORY, { pageSize: 1, onPage: (summary) => pages.push(summary.seen) });
    expect(pages).toEqual([1, 2]);
  });
});

test('a summary counts each outcome, and billed passes beside them', () => {
  const summary = emptySummary();
  for (const [outcome, billedPass] of [
    ['enriched', true],
    ['complete', true],
    ['miss', false],
    ['skipped', false],
  ] as const)
    addResult(summary, { contactId: 'ct_x', outcome, billed: billedPass, found: {} });
  expect(summary).toEqual({ seen: 0, skipped: 1, enriched: 1, complete: 1, misses: 1, billed: 2 });
});

describe('mapWithConcurrency', () => {
  test('keeps order and never runs more than the limit at once', async () => {
    let running = 0;
    let peak = 0;
    const out = await mapWithConcurrency([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 5 * (8 - n)));
      running -= 1;
      return n * 10;
    });
    expect(out).toEqual([10, 20, 30, 40, 50, 60, 70]);
    expect(peak).toBe(3);
  });
});
