/**
 * Cutting a text at its ends by hand, where a regular expression would do
 * it in quadratic time: `/\/+$/` or `/[?#].*$/` try every position of a long
 * run and scan to its end from each (test/repo/linear-regexes.test.ts holds
 * every pattern of the shipped code to linear time). Each of these reads
 * the text once.
 */

/** `text` without any of `chars` at its end (`trimEndOf("a//", "/")` is "a"). */
export function trimEndOf(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text.charAt(end - 1))) end -= 1;
  return end === text.length ? text : text.slice(0, end);
}

/** A URL or path up to its first `?` or `#`: without its query and fragment. */
export function withoutQueryOrFragment(url: string): string {
  for (let at = 0; at < url.length; at += 1) {
    const char = url.charCodeAt(at);
    if (char === 0x3f || char === 0x23) return url.slice(0, at);
  }
  return url;
}
