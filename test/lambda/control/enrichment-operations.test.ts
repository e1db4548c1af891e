import { memoryControlRoom } from '../../support/control-memory';

/**
 * The enrichment operations (refresh, bulk runs, usage) on in-memory ports, as the function runs them.
 */
const room = memoryControlRoom();

describe('bulk runs from the control room', () => {
  test('enrichment.bulk answers how far the run is, from its cursor: rising between 0 and 1 page by page, 1 when done', async () => {
    for (let i = 0; i < 250; i += 1) await room.upsert({ email: `bulk${i}@example.com` });
    const shares: unknown[] = [];
    let answer = await room.control({ operation: 'enrichment.bulk', pages: 1 });
    while (answer.body.done !== true) {
      shares.push(answer.body.progress);
      answer = await room.control({ operation: 'enrichment.bulk', pages: 1, cursor: answer.body.cursor });
    }
    expect(shares).toHaveLength(2);
    const [first, second] = shares as number[];
    expect(first).toBeGreaterThan(0.2);
    expect(second).toBeGreaterThan(first as number);
    expect(second).toBeLessThan(1);
    expect(answer.body.progress).toBe(1);
  });
});

describe('a refresh and the usage', () => {
  test('enrichment.refresh runs one pass on the contact and says what it came to; the usage counts the billed pass', async () => {
    room.dataset.add('r1@example.com', { title: 'CTO' });
    const contact = await room.upsert({ email: 'r1@example.com' });
    const refresh = await room.control({ operation: 'enrichment.refresh', contactId: contact.id });
    expect(refresh).toMatchObject({ status: 200, body: { outcome: 'enriched', billed: true }, audit: { outcome: 'enriched', billed: true } });
    const usage = await room.control({ operation: 'enrichment.usage' });
    expect((usage.body.periods as { billedPasses: number }[]).reduce((sum, period) => sum + period.billedPasses, 0)).toBe(1);
  });

  test('a refresh of a contact that is not there answers not-found, billing nothing', async () => {
    expect((await room.control({ operation: 'enrichment.refresh', contactId: 'ct_0000000000000000' })).body).toMatchObject({
      outcome: 'not-found',
      billed: false,
    });
  });

  test('a refresh retried with its passId is applied once', async () => {
    room.dataset.add('r2@example.com', { title: 'CTO' });
    const contact = await room.upsert({ email: 'r2@example.com' });
    await room.control({ operation: 'enrichment.refresh', contactId: contact.id, passId: 'pass-1' });
    expect((await room.control({ operation: 'enrichment.refresh', contactId: contact.id, passId: 'pass-1' })).body.outcome).toBe('duplicate');
    expect(await room.billed()).toBe(1);
  });
});
