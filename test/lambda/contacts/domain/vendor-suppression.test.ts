import { createHmac } from 'node:crypto';
import { personKey } from '../../../../lambda/kernel/person-key';
import { SUPPRESSION_PREFIX, suppressionKey, SuppressionKeys } from '../../../../lambda/contacts/domain/vendor-suppression';

const SECRET = new Uint8Array(32).fill(3);

describe("an erased person's suppression key", () => {
  test('is suppressed# and 32 hex of HMAC-SHA256 of the email form, keyed with the secret: never the email', () => {
    const expected = createHmac('sha256', SECRET).update('grace@acme.io').digest('hex').slice(0, 32);
    expect(suppressionKey(SECRET, 'grace@acme.io')).toBe(`${SUPPRESSION_PREFIX}${expected}`);
    expect(suppressionKey(SECRET, 'grace@acme.io')).not.toContain('@');
  });

  test('names no factory: one address in any case gives one key', () => {
    expect(suppressionKey(SECRET, ' Grace@ACME.io')).toBe(suppressionKey(SECRET, 'grace@acme.io'));
  });

  test('shares nothing with the person key of the same email, even under the same secret', () => {
    expect(suppressionKey(SECRET, 'grace@acme.io').slice(SUPPRESSION_PREFIX.length)).not.toBe(
      personKey(SECRET, 'fac_a', 'grace@acme.io').slice('person_'.length),
    );
  });

  test("SuppressionKeys derives it with the service's secret", async () => {
    const keys = new SuppressionKeys({ secret: async () => SECRET });
    expect(await keys.keyOf('grace@acme.io')).toBe(suppressionKey(SECRET, 'grace@acme.io'));
  });
});
