import type { StoredEmail } from './email';
import { sha256Hex } from './hash';

/** Every contact id starts with it (and so does every contact item's sort key). */
export const CONTACT_ID_PREFIX = 'ct_';

const CONTACT_ID = /^ct_[0-9a-f]{16}$/;

/**
 * The contact id of the spec (2.1): `ct_` + the first 16 hex characters of
 * sha256("<factoryId>:<stored email>"), the stored email being the lowercase
 * form `normalizeEmail` gives. It is hashed as given, never lowercased again
 * here, so every path derives the id from the one normalization.
 * Deterministic, so an upsert needs no lookup and a retry always lands on
 * the same record.
 */
export function contactId(factoryId: string, email: StoredEmail): string {
  return `ct_${sha256Hex(`${factoryId}:${email}`).slice(0, 16)}`;
}

/** True when `value` has the shape of a contact id. */
export function isContactId(value: string): boolean {
  return CONTACT_ID.test(value);
}
