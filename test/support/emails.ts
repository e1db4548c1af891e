import { normalizeEmail, type StoredEmail } from '../../lambda/domain/email';

/** The stored form of an address the README accepts; a refused one is the test's own mistake. */
export function stored(address: string): StoredEmail {
  const check = normalizeEmail(address);
  if (!check.ok) throw new Error(`not an address the README accepts: ${JSON.stringify(address)} (${check.problem})`);
  return check.email;
}
