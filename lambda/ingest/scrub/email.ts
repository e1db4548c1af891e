import { marker, type ScrubRule } from './rule';

/**
 * E-mail addresses in free text, plain or URL-encoded (`ada%40example.com`
 * in a query string), with an international domain (`ada@bücher.de`,
 * `ada@пример.рф`, punycode) and the full-width `＠` (U+FF20, and the small
 * `﹫`) that a phone keyboard may write. The `reporter` field is where a
 * person's identity belongs, and is not scrubbed. A stack frame that merely
 * looks like one (Firefox's `fn@app.js:1:2`) stays: its "domain" ends in a
 * script's extension (`.js`, `.mjs`, `.html`…); so does a release
 * (`web@1.4.2`), whose "domain" is numbers.
 *
 * An address starts where its run of address characters starts (the
 * lookbehind), never inside one, so each run is read once: a search from
 * every position of a long run took quadratic time.
 */
const LOCAL = '[\\p{L}\\p{N}._%+-]';
const LABEL = '[\\p{L}\\p{N}](?:[\\p{L}\\p{N}-]{0,61}[\\p{L}\\p{N}])?';
const SCRIPT_EXTENSION = '(?:m?js|cjs|jsx|tsx?|html?|css|json|map|vue|svelte|wasm|php)(?![\\p{L}\\p{N}_])';
const TOP_LEVEL = '(?:xn--[a-z0-9-]{1,59}|\\p{L}{2,63})(?![\\p{L}\\p{N}_]|[.-][\\p{L}\\p{N}])';
const EMAIL = new RegExp(`(?<!${LOCAL})${LOCAL}*[\\p{L}\\p{N}_+-](?:@|%40|\\uff20|\\ufe6b)(?:${LABEL}\\.)+(?!${SCRIPT_EXTENSION})${TOP_LEVEL}`, 'gu');

/** What every address holds: without one of these, a text has none. */
const AT = /@|%40|\uff20|\ufe6b/;

export const emailRule: ScrubRule = {
  name: 'email',
  apply: (text, replaced) =>
    AT.test(text)
      ? text.replace(EMAIL, () => {
          replaced();
          return marker('email');
        })
      : text,
};

/** The e-mail pattern, for the linear-time check of every pattern (test/repo/linear-regexes.test.ts): it is built, not written. */
export const EMAIL_PATTERN = EMAIL;
