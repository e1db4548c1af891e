import { featureRequestId, submitFeatureRequest } from '../../../lambda/ingest/submit-feature-request';
import { MemoryReportStore } from '../../../lambda/infrastructure/memory/memory-report-store';

const RECEIPT = {
  factoryId: 'fac_a',
  keyId: 'key_a',
  origin: 'https://shop.example',
  receivedAt: '2026-11-21T09:00:00.000Z',
  expiresAt: 2e9,
  requestToken: 't1',
};
const INPUT = { requestId: '8f0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c11', title: 'Dark mode', reporter: { email: 'ada@example.com' } };

describe('a feature request', () => {
  test('its id is fr_ and 16 hex of its factory and requestId: the same request, the same id', () => {
    expect(featureRequestId('fac_a', INPUT.requestId)).toMatch(/^fr_[0-9a-f]{16}$/);
    expect(featureRequestId('fac_b', INPUT.requestId)).not.toBe(featureRequestId('fac_a', INPUT.requestId));
  });

  test('is stored once: sent again with the same requestId it is the same request, not created again', async () => {
    const store = new MemoryReportStore();
    const first = await submitFeatureRequest(store, INPUT, RECEIPT);
    const again = await submitFeatureRequest(store, { ...INPUT, title: 'Changed' }, { ...RECEIPT, requestToken: 't2', receivedAt: '2026-11-21T10:00:00.000Z' });
    expect(first).toEqual({
      created: true,
      featureRequest: { id: featureRequestId('fac_a', INPUT.requestId), title: 'Dark mode', createdAt: RECEIPT.receivedAt },
    });
    expect(again).toEqual({ created: false, featureRequest: first.featureRequest });
  });

  test('a retry of the same request (its own token) counts as created, not as a repeat', async () => {
    const store = new MemoryReportStore();
    await submitFeatureRequest(store, INPUT, RECEIPT);
    expect((await submitFeatureRequest(store, INPUT, RECEIPT)).created).toBe(true);
  });

  test('the answer never names the reporter or where it came from', async () => {
    const answer = await submitFeatureRequest(new MemoryReportStore(), INPUT, RECEIPT);
    expect(JSON.stringify(answer)).not.toMatch(/ada@example\.com|shop\.example|key_a/);
  });
});
