import { InvalidCursorError } from '../domain/errors';
import { CONTACT_SK_PREFIX } from '../store/schema';

/**
 * A bulk run's position: the last contact id a page ended on, bound to its
 * factory. Opaque to the control room (base64url JSON).
 */
export function encodeCursor(factoryId: string, lastContactId: string): string {
  return Buffer.from(JSON.stringify({ f: factoryId, c: lastContactId })).toString('base64url');
}

export function decodeCursor(cursor: string, factoryId: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError('cursor is not one this service returned: start without a cursor, or pass the last one back as it was');
  }
  const { f, c } = (parsed ?? {}) as { f?: unknown; c?: unknown };
  if (typeof c !== 'string' || !c.startsWith(CONTACT_SK_PREFIX) || typeof f !== 'string') {
    throw new InvalidCursorError('cursor is not one this service returned: start without a cursor, or pass the last one back as it was');
  }
  if (f !== factoryId) throw new InvalidCursorError(`cursor belongs to another factory (${f}), not ${factoryId}`);
  return c;
}
