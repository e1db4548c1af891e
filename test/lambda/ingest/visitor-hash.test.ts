import { saltDay, visitorHash } from '../../../lambda/ingest/visitor-hash';
import { VISITOR_HASH_LENGTH } from '../../../lambda/ingest/issues/visitors';

const SALT = new Uint8Array(32).fill(9);

describe("a visitor's hash for the day", () => {
  test('8 base64url characters, the same for one client, factory and day', () => {
    const hash = visitorHash(SALT, 'fac_a', '203.0.113.7', 'Mozilla/5.0');
    expect(hash).toMatch(new RegExp(`^[A-Za-z0-9_-]{${VISITOR_HASH_LENGTH}}$`));
    expect(visitorHash(SALT, 'fac_a', '203.0.113.7', 'Mozilla/5.0')).toBe(hash);
  });

  test('another browser, address, factory or day (salt) is another visitor', () => {
    const hash = visitorHash(SALT, 'fac_a', '203.0.113.7', 'Mozilla/5.0');
    expect(visitorHash(SALT, 'fac_a', '203.0.113.7', 'curl/8')).not.toBe(hash);
    expect(visitorHash(SALT, 'fac_a', '203.0.113.8', 'Mozilla/5.0')).not.toBe(hash);
    expect(visitorHash(SALT, 'fac_b', '203.0.113.7', 'Mozilla/5.0')).not.toBe(hash);
    expect(visitorHash(new Uint8Array(32).fill(1), 'fac_a', '203.0.113.7', 'Mozilla/5.0')).not.toBe(hash);
  });

  test('one IPv6 client keeps its hash across the addresses of its /64', () => {
    expect(visitorHash(SALT, 'fac_a', '2001:db8:1:2::1', 'ua')).toBe(visitorHash(SALT, 'fac_a', '2001:db8:1:2:abcd::9', 'ua'));
  });

  test("the salt is the UTC day's", () => {
    expect(saltDay(Date.parse('2026-11-26T23:59:59Z'))).toBe('2026-11-26');
    expect(saltDay(Date.parse('2026-11-27T00:00:00Z'))).toBe('2026-11-27');
  });
});
