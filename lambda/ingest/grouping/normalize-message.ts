/**
 * A message with its variable parts replaced, so that "Order 1234 not found"
 * and "Order 98 not found" group together when there is no stack to group
 * by. Replaced, in this order (earlier ones would otherwise be cut by later
 * ones): URLs, e-mail addresses, quoted values, UUIDs, hex ids (0x… or 8+
 * hex digits holding a digit), then numbers. Whitespace runs become one
 * space. Pure; the fingerprint rule (fingerprint.ts) uses it.
 */
// Each pattern starts where its run of characters starts (the lookbehinds), never inside one: searched from
// every position, a long run without the rest of the match took quadratic time (test/repo/linear-regexes.test.ts).
const RULES: readonly [RegExp, string][] = [
  [/(?<![a-z0-9+.-])[a-z][a-z0-9+.-]{0,31}:\/\/[^\s"'`<>)]+/gi, '<url>'],
  [/(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, '<email>'],
  [/(?<!\\)(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`[^`\n]*`)/g, '<str>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b0x[0-9a-f]+\b/gi, '<hex>'],
  [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi, '<hex>'],
  [/[-+]?\b\d+(\.\d+)?\b/g, '<n>'],
];

/** At most this many characters of the normalized message decide the group. */
export const MESSAGE_KEY_MAX = 500;

export function normalizeMessage(message: string): string {
  let text = message;
  for (const [pattern, replacement] of RULES) text = text.replace(pattern, replacement);
  return text.replace(/\s+/g, ' ').trim().slice(0, MESSAGE_KEY_MAX);
}
