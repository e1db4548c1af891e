import { createHmac } from 'node:crypto';
import { personEmailForm, personKey, PersonKeys, PERSON_KEY_PATTERN, PERSON_KEY_PREFIX } from '../../../lambda/kernel/person-key';

const SECRET = new Uint8Array(32).fill(7);

describe("a person's key", () => {
  test('is person_ and the first 32 hex of HMAC-SHA256(secret, "<factoryId>\\n<email form>")', () => {
    const expected = createHmac('sha256', SECRET).update('fac_a\nada@example.com').digest('hex').slice(0, 32);
    expect(personKey(SECRET, 'fac_a', 'ada@example.com')).toBe(`${PERSON_KEY_PREFIX}${expected}`);
    expect(personKey(SECRET, 'fac_a', 'ada@example.com')).toMatch(/^person_[0-9a-f]{32}$/);
  });

  test('PERSON_KEY_PATTERN, which an erasure by person key is checked with, takes every key and nothing else', () => {
    expect(PERSON_KEY_PATTERN.test(personKey(SECRET, 'fac_a', 'ada@example.com'))).toBe(true);
    for (const wrong of ['person_', `person_${'A'.repeat(32)}`, `person_${'a'.repeat(31)}`, `ct_${'a'.repeat(32)}`])
      expect(PERSON_KEY_PATTERN.test(wrong)).toBe(false);
  });

  test("the email's form: trimmed, NFC, lowercase, so every way of writing one address gives one key", () => {
    expect(personEmailForm('  Ada@Example.COM ')).toBe('ada@example.com');
    expect(personEmailForm('Jose\u0301@example.com')).toBe('jos\u00e9@example.com');
    expect(personKey(SECRET, 'fac_a', ' ADA@example.com')).toBe(personKey(SECRET, 'fac_a', 'ada@example.com'));
  });

  test('differs between factories and between secrets', () => {
    const key = personKey(SECRET, 'fac_a', 'ada@example.com');
    expect(personKey(SECRET, 'fac_b', 'ada@example.com')).not.toBe(key);
    expect(personKey(new Uint8Array(32).fill(8), 'fac_a', 'ada@example.com')).not.toBe(key);
  });

  test("PersonKeys derives it with the service's secret, read from its source", async () => {
    let reads = 0;
    const keys = new PersonKeys({
      secret: async () => {
        reads += 1;
        return SECRET;
      },
    });
    expect(await keys.keyOf('fac_a', 'Ada@example.com')).toBe(personKey(SECRET, 'fac_a', 'ada@example.com'));
    expect(reads).toBe(1);
  });
});
