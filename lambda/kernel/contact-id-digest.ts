import type { StoredEmail } from './email';

/**
 * The contact id's rule without the hashing itself (docs/contacts-api.md#the-contact): what is
 * hashed, and how the id is cut from the digest. Pure and free of Node, so
 * the typed client (client/) compiles this very module and derives ids
 * offline with WebCrypto, while the service hashes synchronously
 * (contact-id.ts).
 */

/** Every contact id starts with it (and so does every contact item's sort key). */
export const CONTACT_ID_PREFIX = 'ct_';

/** The shape of a contact id: the prefix and 16 lowercase hex characters. */
export const CONTACT_ID_PATTERN = /^ct_[0-9a-f]{16}$/;

/**
 * The text whose sha256 gives the id: "<factoryId>:<stored email>", the
 * stored email being the lowercase form `normalizeEmail` gives. It is used
 * as given, never lowercased again here, so every path derives the id from
 * the one normalization.
 */
export function contactIdInput(factoryId: string, email: StoredEmail): string {
  return `${factoryId}:${email}`;
}

/** The id from the lowercase hex sha256 of `contactIdInput`. */
export function contactIdFromDigest(sha256Hex: string): string {
  return `${CONTACT_ID_PREFIX}${sha256Hex.slice(0, 16)}`;
}

/** True when `value` has the shape of a contact id. */
export function isContactId(value: string): boolean {
  return CONTACT_ID_PATTERN.test(value);
}
