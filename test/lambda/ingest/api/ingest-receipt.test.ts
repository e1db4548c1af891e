import { receiptOf } from '../../../../lambda/ingest/api/ingest-receipt';
import { newRequestState } from '../../../../lambda/infrastructure/http/request-state';

const AT = Date.parse('2026-11-21T09:00:00Z');

describe('what the server records with every report of a request', () => {
  test("the key's tenant and id, the website, the browser and visitor, the time, and the expiry after the retention", () => {
    const state = {
      ...newRequestState({ client: { origin: 'https://shop.example.com', userAgent: 'Mozilla/5.0', visitor: 'AbCdEfGh' } }),
      caller: { factoryId: 'fac_a', keyId: 'key_a' },
    };
    const receipt = receiptOf(state, AT, 90);
    expect(receipt).toMatchObject({
      factoryId: 'fac_a',
      keyId: 'key_a',
      origin: 'https://shop.example.com',
      userAgent: 'Mozilla/5.0',
      visitor: 'AbCdEfGh',
      receivedAt: '2026-11-21T09:00:00.000Z',
      expiresAt: AT / 1000 + 90 * 86_400,
    });
    expect(receipt.requestToken).toMatch(/^[0-9a-f-]{36}$/);
    expect(receiptOf(state, AT, 90).requestToken).not.toBe(receipt.requestToken);
  });

  test('a route reached before its origin was checked is a programming error, said so', () => {
    expect(() => receiptOf({ ...newRequestState({}), caller: { factoryId: 'fac_a', keyId: 'key_a' } }, AT, 90)).toThrow(
      'ingest route reached without a checked origin',
    );
  });
});
