/**
 * An item's size as DynamoDB counts it for capacity: the UTF-8 length of
 * every attribute name plus the size of its value ("Item sizes and formats",
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html).
 *
 * Where the guide gives an approximation, so does this:
 * - strings: UTF-8 bytes; binary: raw bytes (the base64 on the wire decoded);
 * - numbers: about one byte per two significant digits, plus one (leading and
 *   trailing zeros do not count), one more for a negative number;
 * - booleans and null: one byte;
 * - sets: the sum of their elements;
 * - lists and maps: 3 bytes, plus for each element one byte and its size
 *   (a map's element: its name's bytes and its value).
 */
import type { AttributeValue, Item } from './wire';

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');
const binary = (base64: string) => Buffer.from(base64, 'base64').length;

export function numberSize(text: string): number {
  const mantissa = text.trim().replace(/^[+-]/, '').split(/[eE]/)[0] ?? '';
  const digits = mantissa.replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1 + (text.trim().startsWith('-') ? 1 : 0);
}

export function valueSize(value: AttributeValue): number {
  if ('S' in value) return utf8(value.S);
  if ('N' in value) return numberSize(value.N);
  if ('B' in value) return binary(value.B);
  if ('BOOL' in value || 'NULL' in value) return 1;
  if ('SS' in value) return value.SS.reduce((sum, element) => sum + utf8(element), 0);
  if ('NS' in value) return value.NS.reduce((sum, element) => sum + numberSize(element), 0);
  if ('BS' in value) return value.BS.reduce((sum, element) => sum + binary(element), 0);
  if ('L' in value) return value.L.reduce((sum, element) => sum + 1 + valueSize(element), 3);
  if ('M' in value) return Object.entries(value.M).reduce((sum, [name, element]) => sum + 1 + utf8(name) + valueSize(element), 3);
  return 0;
}

/** The size in bytes of an item (0 for no item). */
export function itemSize(item: Item | undefined): number {
  if (!item) return 0;
  let size = 0;
  for (const [name, value] of Object.entries(item)) size += utf8(name) + valueSize(value);
  return size;
}

/**
 * Write units for so many bytes: one per started kilobyte, at least one
 * ("DynamoDB read and write operations",
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html).
 */
export const writeUnitsOf = (bytes: number): number => Math.max(1, Math.ceil(bytes / 1024));
