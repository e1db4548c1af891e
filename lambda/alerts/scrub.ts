/**
 * An issue's title comes from the first line of a page's error message,
 * which can hold what a visitor typed. A payload leaves the platform for a
 * receiver it does not control, so its title is sent with e-mail addresses,
 * IP addresses and long digit runs (phone, card or account numbers) replaced
 * (docs/alerts.md#the-payload). The control room still shows the title whole.
 * The title was already scrubbed at ingest (lambda/ingest/scrub/: cards,
 * tokens, keys, emails… are markers by then); this second pass is the
 * payload's own, stricter rule: it also takes IP addresses and any long
 * digit run, which a stored report keeps.
 */
// From the start of a run only (the lookbehind): a search from every position of a long run was quadratic.
const EMAIL = /(?<![^\s@<>()"',;])[^\s@<>()"',;]+@[^\s@<>()"',;.]+(?:\.[^\s@<>()"',;.]+)+/g;
const IPV4 = /\b\d{1,3}(?:\.\d{1,3}){3}\b/g;
const IPV6 = /\b(?:[0-9a-f]{1,4}:){2,7}[0-9a-f]{0,4}\b/gi;
/** An IPv6 address written with `::` (2001:db8::1), which the full form's pattern misses. */
const IPV6_COMPRESSED = /\b(?:[0-9a-f]{1,4}:){1,7}:(?:[0-9a-f]{1,4}(?::[0-9a-f]{1,4}){0,6})?/gi;
const LONG_DIGITS = /\d[\d -]{5,}\d/g;

export function scrubbedTitle(title: string): string {
  return title
    .replace(EMAIL, '<email>')
    .replace(IPV4, '<ip>')
    .replace(IPV6_COMPRESSED, '<ip>')
    .replace(IPV6, '<ip>')
    .replace(LONG_DIGITS, '<number>')
    .slice(0, 500);
}
