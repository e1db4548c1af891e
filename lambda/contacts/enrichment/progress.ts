import { CONTACT_ID_PREFIX } from '../../kernel/contact-id-digest';
import { contactCursor } from '../../kernel/cursor';

/** Hex digits of a contact id read: 12 (48 bits) say the share to far better than a percent. */
const DIGITS = 12;
/** Exported for the linear-time check of every pattern (test/repo/linear-regexes.test.ts). */
export const HEX = new RegExp(`^[0-9a-f]{${DIGITS}}$`);

/**
 * How far a bulk run is (0 to 1), from its cursor alone: contacts are read in
 * id order, and a contact id is `ct_` + hex digits of a hash, spread evenly
 * over their range, so the last id read says what share of the factory is
 * behind it (about: within a percent or so past a few hundred contacts).
 */
export function bulkProgress(factoryId: string, cursor: string | undefined, done: boolean): number {
  if (done) return 1;
  if (cursor === undefined) return 0;
  let last: string;
  try {
    last = contactCursor.decode(cursor, factoryId);
  } catch {
    return 0;
  }
  const digits = last.slice(CONTACT_ID_PREFIX.length, CONTACT_ID_PREFIX.length + DIGITS);
  return HEX.test(digits) ? Number.parseInt(digits, 16) / 16 ** DIGITS : 0;
}
