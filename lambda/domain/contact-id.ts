import { sha256Hex } from './hash';

/** Every contact id starts with it (and so does every contact item's sort key). */
export const CONTACT_ID_PREFIX = 'ct_';

const CONTACT_ID = /^ct_[0-9a-f]{16}$/;

/**
 * The contact id of the spec (2.1): `ct_` + the first 16 hex characters of
 * sha256("<factoryId>:<lowercased email>"). Deterministic, so an upsert needs
 * no lookup and a retry always lands on the same record.
 */
export function contactId(factoryId: string, email: string): string {
  return `ct_${sha256Hex(`${factoryId}:${email.toLowerCase()}`).slice(0, 16)}`;
}

/** True when `value` has the shape of a contact id. */
export function isContactId(value: string): boolean {
  return CONTACT_ID.test(value);
}
