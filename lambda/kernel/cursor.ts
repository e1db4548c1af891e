import { CONTACT_ID_PREFIX } from './contact-id-digest';
import { InvalidCursorError } from './errors';

/**
 * The one cursor of every paged list (contacts, companies, enrichment's bulk
 * runs, the issue list, events and feature requests, the delivery log):
 * where a page ended, bound to its factory and to the list it belongs to,
 * opaque to callers (base64url JSON). A cursor that is not one this service
 * returned, or that belongs to another factory or another list, is refused
 * with InvalidCursorError, which every caller answers as a 400.
 */
export interface CursorScope {
  factoryId: string;
  /** Names the list and what its pages depend on (kind, status, order, search): a cursor of another list is refused. */
  list: string;
}

export function encodeCursor(scope: CursorScope, position: unknown): string {
  return Buffer.from(JSON.stringify({ f: scope.factoryId, l: scope.list, p: position })).toString('base64url');
}

/** The position a cursor holds, read by `positionOf` (undefined: not a position of this list). */
export function decodeCursor<P>(cursor: string, scope: CursorScope, positionOf: (value: unknown) => P | undefined): P {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const { f, l, p } = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
  const notOurs = new InvalidCursorError('cursor is not one this service returned for this list: start without a cursor, or pass the last one back as it was');
  if (typeof f !== 'string' || typeof l !== 'string') throw notOurs;
  if (f !== scope.factoryId) throw new InvalidCursorError(`cursor belongs to another factory (${f}), not ${scope.factoryId}`);
  if (l !== scope.list)
    throw new InvalidCursorError('cursor belongs to another list (another kind, status, order or search): start without a cursor when the list changes');
  const position = positionOf(p);
  if (position === undefined) throw notOurs;
  return position;
}

/** A position that is a text (a sort key, an id), when it is one. */
export const textPosition = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The cursor of a list that only its factory scopes: its name, and how its positions are read. */
export function listCursor<P>(list: string, positionOf: (value: unknown) => P | undefined) {
  return {
    encode: (factoryId: string, position: P): string => encodeCursor({ factoryId, list }, position),
    decode: (cursor: string, factoryId: string): P => decodeCursor(cursor, { factoryId, list }, positionOf),
  };
}

/** The contact lists (the control room's, enrichment's bulk runs): in id order, a page ending at a contact id. */
export const contactCursor = listCursor('contacts', (value) => (typeof value === 'string' && value.startsWith(CONTACT_ID_PREFIX) ? value : undefined));

/** The company list: in domain order, a page ending at a company's domain. */
export const companyCursor = listCursor('companies', textPosition);
