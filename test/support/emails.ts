import { normalizeEmail, type StoredEmail } from '../../lambda/kernel/email';

/** The stored form of an address docs/contacts-api.md#email-addresses accepts; a refused one is the test's own mistake. */
export function stored(address: string): StoredEmail {
  const check = normalizeEmail(address);
  if (!check.ok) throw new Error(`not an address docs/contacts-api.md#email-addresses accepts: ${JSON.stringify(address)} (${check.problem})`);
  return check.email;
}
