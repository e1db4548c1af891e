import { contactIdFromDigest, contactIdInput } from '../../lambda/kernel/contact-id-digest';
import { normalizeEmail } from '../../lambda/kernel/email';
import { InvalidEmailError } from './errors.js';

/** Lowercase hex of a digest. */
function hex(digest: ArrayBuffer): string {
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The id the service gives the contact with this email in this factory,
 * computed offline: the service's own email normalization and id rule
 * (compiled into this package from its sources), hashed with WebCrypto.
 * Throws InvalidEmailError for an address the service would refuse (422),
 * with the service's own message.
 */
export async function contactId(factoryId: string, email: string): Promise<string> {
  const check = normalizeEmail(email);
  if (!check.ok) throw new InvalidEmailError(check.problem);
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(contactIdInput(factoryId, check.email)));
  return contactIdFromDigest(hex(digest));
}
