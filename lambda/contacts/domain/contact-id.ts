import { contactIdFromDigest, contactIdInput } from '../../kernel/contact-id-digest';
import type { StoredEmail } from '../../kernel/email';
import { sha256Hex } from '../../kernel/hash';

/**
 * The contact id of the spec (2.1): `ct_` + the first 16 hex characters of
 * sha256("<factoryId>:<stored email>"), the stored email being what
 * `normalizeEmail` gives (contact-id-digest.ts). Deterministic, so an upsert
 * needs no lookup and a retry always lands on the same record.
 */
export function contactId(factoryId: string, email: StoredEmail): string {
  return contactIdFromDigest(sha256Hex(contactIdInput(factoryId, email)));
}
