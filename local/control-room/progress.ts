import { decodeCursor } from '../../lambda/enrichment/cursor';

/**
 * How far a bulk run is, from its cursor alone: contacts are read in id
 * order, and a contact id is `ct_` + hex digits of a hash, spread evenly
 * over their range, so the last id read says what share of the factory is
 * behind it (about: within a percent or so past a few hundred contacts).
 */
export function bulkProgress(factoryId: string, cursor: unknown, done: boolean): number {
  if (done) return 1;
  if (typeof cursor !== 'string') return 0;
  let last: string;
  try {
    last = decodeCursor(cursor, factoryId);
  } catch {
    return 0;
  }
  const digits = /^ct_([0-9a-f]{12})/.exec(last)?.[1];
  return digits === undefined ? 0 : Number.parseInt(digits, 16) / 16 ** 12;
}
