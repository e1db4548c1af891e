/**
 * The one order of every newest-first list (events, feature requests,
 * issues, the delivery log): the greatest value first, and items of equal
 * value by their key, descending. DynamoDB hands a partition read backwards
 * out in that order, so every store (the in-memory twins included) and
 * every merge of several reads orders alike, and a cursor (a value and a
 * key) says exactly where a page ended.
 */
export function descending<T>(value: (item: T) => string | number, key: (item: T) => string): (a: T, b: T) => number {
  return (a, b) => greaterFirst(value(a), value(b)) || greaterFirst(key(a), key(b));
}

const greaterFirst = (a: string | number, b: string | number): number => (a < b ? 1 : a > b ? -1 : 0);
