import { InvalidCursorError } from '../domain/errors';
import { CONTACT_SK_PREFIX } from '../store/schema';

/**
 * A page's position: the sort key of the last item a page ended on (a
 * contact id, or a company's `company#<domain>`), bound to its factory.
 * Opaque to the control room (base64url JSON).
 */
export function encodeCursor(factoryId: string, lastKey: string): string {
  return Buffer.from(JSON.stringify({ f: factoryId, c: lastKey })).toString('base64url');
}

/** The sort key a cursor holds; refuses one of another factory, or of another kind of list (`prefix`). */
export function decodeCursor(cursor: string, factoryId: string, prefix: string = CONTACT_SK_PREFIX): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError('cursor is not one this service returned: start without a cursor, or pass the last one back as it was');
  }
  const { f, c } = (parsed ?? {}) as { f?: unknown; c?: unknown };
  if (typeof c !== 'string' || !c.startsWith(prefix) || typeof f !== 'string') {
    throw new InvalidCursorError('cursor is not one this service returned for this list: start without a cursor, or pass the last one back as it was');
  }
  if (f !== factoryId) throw new InvalidCursorError(`cursor belongs to another factory (${f}), not ${factoryId}`);
  return c;
}
