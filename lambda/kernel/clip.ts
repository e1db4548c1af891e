/**
 * Clips `value` to at most `max` characters (Unicode code points, so a
 * surrogate pair is never cut in half).
 */
export function clip(value: string, max: number): string {
  // Fast path: UTF-16 length is an upper bound of the code point count.
  if (value.length <= max) return value;
  let out = '';
  let count = 0;
  for (const char of value) {
    if (count === max) break;
    out += char;
    count += 1;
  }
  return out;
}

/** Number of Unicode code points in `value`. */
export function charCount(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}
