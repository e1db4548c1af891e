import { LOG_TOP, mergeLogs, newestDeliveryFirst, readLog } from '../../../lambda/alerts/delivery-log';
import type { Delivery } from '../../../lambda/alerts/ports';

const delivery = (destinationId: string, sk: string): Delivery =>
  ({
    factoryId: 'fac_a',
    destinationId,
    sk,
    alertId: sk,
    webhookId: 'm',
    type: 'issue.created',
    issueId: 'i',
    occurredAt: sk,
    body: '{}',
    status: 'delivered',
    attempts: 1,
    createdAt: sk,
    history: [],
    expiresAt: 0,
  }) as Delivery;

describe('the delivery log of several destinations as one list', () => {
  test('newest first; two deliveries of one alert by destination', () => {
    const list = [delivery('dst_a', '2026-11-21T09'), delivery('dst_b', '2026-11-21T10'), delivery('dst_b', '2026-11-21T09')].sort(newestDeliveryFirst);
    expect(list.map((d) => `${d.sk} ${d.destinationId}`)).toEqual(['2026-11-21T10 dst_b', '2026-11-21T09 dst_b', '2026-11-21T09 dst_a']);
  });

  test('takes the first `limit` of the merged reads; each destination goes on from its last delivery taken', () => {
    const merged = mergeLogs(
      [
        { destinationId: 'dst_a', deliveries: [delivery('dst_a', '3'), delivery('dst_a', '1')], more: false },
        { destinationId: 'dst_b', deliveries: [delivery('dst_b', '2')], more: true },
      ],
      2,
    );
    expect(merged.deliveries.map((d) => d.sk)).toEqual(['3', '2']);
    expect(merged.next).toEqual({ dst_a: '3', dst_b: '2' });
  });

  test('a destination none of whose deliveries was taken keeps its old position, or the top; one that ended is left out', () => {
    const merged = mergeLogs(
      [
        { destinationId: 'dst_a', deliveries: [delivery('dst_a', '9')], more: false },
        { destinationId: 'dst_b', deliveries: [delivery('dst_b', '1')], more: false },
        { destinationId: 'dst_c', deliveries: [], more: false },
      ],
      1,
      { dst_b: '5' },
    );
    expect(merged.next).toEqual({ dst_b: '5' });
    expect(mergeLogs([{ destinationId: 'dst_b', deliveries: [delivery('dst_b', '1')], more: false }], 0).next).toEqual({ dst_b: LOG_TOP });
  });

  test('no next when every part ended', () => {
    expect(mergeLogs([{ destinationId: 'dst_a', deliveries: [delivery('dst_a', '1')], more: false }], 5)).toEqual({ deliveries: [delivery('dst_a', '1')] });
  });

  test('readLog reads each destination still going from its position, every one from the top without a cursor', async () => {
    const reads: [string, string | undefined][] = [];
    const read = async (destinationId: string, before: string | undefined) => {
      reads.push([destinationId, before]);
      return { deliveries: [], more: false };
    };
    await readLog(['dst_a', 'dst_b'], { limit: 10 }, read);
    await readLog(['dst_a', 'dst_b'], { limit: 10, after: { dst_b: '7' } }, read);
    expect(reads).toEqual([
      ['dst_a', undefined],
      ['dst_b', undefined],
      ['dst_b', '7'],
    ]);
  });
});
