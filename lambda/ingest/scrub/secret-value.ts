import { looksLikeCredential, marker, MARKER, type ScrubRule } from './rule';

/**
 * Values of password-, secret-, token-, api-key- and auth-like keys:
 *   - in query strings, form bodies and key=value text: `?password=hunter2&x=1`, `token=abc`, `pw=…`, `passwort=…`, `?key=…`;
 *   - JSON-ish, quoted, escaped or not: `"apiKey": "abc"`, `{\"secret\":\"abc\"}`, `'auth': 'abc'`;
 *   - `key: value` unquoted, when the value looks like a credential
 *     (`X-Api-Key: 9f2c…`), so that "Invalid token: expired" stays;
 *   - a tag whose name is such a key (the tags reader asks isSensitiveKey).
 * The key stays (it says what was there), the value becomes the marker.
 */

/** Parts of a key, with separators and digits removed, that make it sensitive wherever they appear ("csrftoken", "db_password"). */
const SENSITIVE_PART =
  /pass(?:word|wd|phrase|wort)|kennwort|secret|token|api_?key|private_?key|access_?key|secret_?key|signing_?key|credential|bearer|session_?id|jwt/;
/** Whole words that do (not inside another: "author" is not "auth"). */
const SENSITIVE_WORDS = new Set([
  'auth',
  'authorization',
  'authentication',
  'oauth',
  'pass',
  'pw',
  'pwd',
  'passwd',
  'session',
  'cookie',
  'sig',
  'signature',
  'apikey',
]);
/** Names that are a credential only as the whole name: `?key=` (a beacon's key), `k=`. */
const SENSITIVE_NAMES = new Set(['key']);

/** Whether a key (a query parameter, a JSON key, a tag name) names a credential: `password`, `X-Auth-Token`, `client_secret`, `apiKey`, `sig`, `pw`, `key`. */
export function isSensitiveKey(key: string): boolean {
  const lower = key.toLowerCase();
  if (SENSITIVE_NAMES.has(lower)) return true;
  if (SENSITIVE_PART.test(lower.replace(/[^a-z_]/g, '').replace(/_/g, '')) || SENSITIVE_PART.test(lower.replace(/[^a-z_]/g, ''))) return true;
  // camelCase and every separator split words: "xAuthToken" → x, auth, token.
  const words = key.split(/[^A-Za-z]+|(?<=[a-z])(?=[A-Z])/).map((word) => word.toLowerCase());
  return words.some((word) => SENSITIVE_WORDS.has(word));
}

/** A text without any of these holds no credential's key: most stacks and messages, passed over in one fast test. */
const ANY_FRAGMENT = /pass|pw|secret|token|key|auth|credential|bearer|session|jwt|cookie|sig|kennwort/i;

const isKeyChar = (code: number): boolean =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 46 || code === 45;
const isSpace = (char: string): boolean => /\s/.test(char);
const isQuote = (char: string | undefined): boolean => char === '"' || char === "'";
/** What ends an unquoted value: whitespace and the delimiters of queries, cookies, JSON and markup. */
const VALUE_END = /[\s&#;,()[\]{}"'<>\\]/;

/**
 * The next place of a string from a position on, remembered: the scan asks
 * for a closing quote from positions that only grow, so each search starts
 * where the last one ended, and a text with no closing quote is searched
 * once, not once per key (what made the pattern this replaced quadratic).
 */
class NextIndex {
  private readonly found = new Map<string, { from: number; at: number }>();
  constructor(private readonly text: string) {}

  of(needle: string, from: number): number {
    const last = this.found.get(needle);
    if (last && from >= last.from && (last.at === -1 || from <= last.at)) return last.at;
    const at = this.text.indexOf(needle, from);
    this.found.set(needle, { from, at });
    return at;
  }
}

/** The key before a separator at `at`: its quote, its name, where it starts; undefined when no key stands there. */
function keyBefore(text: string, at: number): { quote: string; key: string } | undefined {
  let end = at;
  while (end > 0 && isSpace(text.charAt(end - 1))) end -= 1;
  // A closing quote after the key: `"`, `'`, or an escaped one (`\"` inside a JSON string).
  let closing = '';
  if (isQuote(text.charAt(end - 1))) {
    closing = text.charAt(end - 1);
    end -= 1;
    if (text.charAt(end - 1) === '\\') {
      closing = `\\${closing}`;
      end -= 1;
    }
  }
  let start = end;
  while (start > 0 && isKeyChar(text.charCodeAt(start - 1))) start -= 1;
  const key = text.slice(start, end);
  if (key === '' || !/^[A-Za-z_]/.test(key)) return undefined;
  if (closing === '') return { quote: '', key };
  // The key is quoted as it is closed, or the quote after it belongs to something else.
  const opening = closing.length === 2 ? text.slice(start - 2, start) : text.charAt(start - 1);
  return opening === closing ? { quote: closing, key } : undefined;
}

/** The value after a separator ending at `from`: where it starts and ends, and how it was written; undefined when none. */
function valueAfter(text: string, from: number, next: NextIndex): { start: number; end: number; quote?: string; scheme: boolean } | undefined {
  let start = from;
  while (text.charAt(start) === ' ' || text.charAt(start) === '\t') start += 1;
  const first = text.charAt(start);
  const quote = first === '\\' && isQuote(text.charAt(start + 1)) ? `\\${text.charAt(start + 1)}` : isQuote(first) ? first : undefined;
  if (quote !== undefined) {
    const close = next.of(quote, start + quote.length);
    const lineEnd = next.of('\n', start);
    if (close === -1 || (lineEnd !== -1 && lineEnd < close)) return undefined;
    return { start: start + quote.length, end: close, quote, scheme: false };
  }
  // An auth scheme's word stays before its credential: `Authorization: Bearer abc`.
  const scheme = /^(?:bearer|basic)[ \t]+/i.exec(text.slice(start, start + 16));
  let valueStart = start;
  if (scheme && !VALUE_END.test(text.charAt(start + scheme[0].length)) && text.charAt(start + scheme[0].length) !== '') valueStart += scheme[0].length;
  const marked = MARKER.exec(text.slice(valueStart, valueStart + 40));
  if (marked?.index === 0) return { start: valueStart, end: valueStart + marked[0].length, scheme: valueStart !== start };
  let end = valueStart;
  while (end < text.length && !VALUE_END.test(text.charAt(end))) end += 1;
  return end === valueStart ? undefined : { start: valueStart, end, scheme: valueStart !== start };
}

/**
 * Read by hand, separator by separator, rather than by one pattern: the
 * pattern this replaced backtracked through every key-like run (62 KB of
 * `x=keykeykey…` held the ingest for seconds). For each `=` or `:`, the key
 * before it (read back over its run) and the value after it (read forward);
 * a key that is not a credential's is passed over, and so is its value,
 * where a credential's key may sit (`{"note": "?token=…"}`). Each character
 * is read a bounded number of times.
 */
function replaceValues(text: string, replaced: () => void): string {
  const next = new NextIndex(text);
  // A text that repeats a key asks about it once.
  const sensitive = new Map<string, boolean>();
  const isSensitive = (key: string): boolean => {
    let known = sensitive.get(key);
    if (known === undefined) {
      known = isSensitiveKey(key);
      sensitive.set(key, known);
    }
    return known;
  };
  let out = '';
  let copied = 0;
  for (let at = 0; at < text.length; at += 1) {
    const char = text.charAt(at);
    if (char !== '=' && char !== ':') continue;
    // `==` compares, `://` starts a URL.
    if (char === '=' && text.charAt(at + 1) === '=') {
      at += 1;
      continue;
    }
    if (char === ':' && text.startsWith('//', at + 1)) continue;
    if (at < copied) continue;
    const found = keyBefore(text, at);
    if (!found || !isSensitive(found.key)) continue;
    const value = valueAfter(text, at + 1, next);
    if (!value) continue;
    const written = text.slice(value.start, value.end);
    const keep =
      written === '' ||
      MARKER.test(written) ||
      // "Invalid token: expired" is prose; `"token": "expired"` and `X-Api-Key: 9f2c…` are not.
      (char === ':' && found.quote === '' && value.quote === undefined && !looksLikeCredential(written));
    if (keep) continue;
    replaced();
    out += `${text.slice(copied, value.start)}${marker('secret')}`;
    copied = value.end;
    // The value's closing quote is read again: in text that is not quite JSON (`{"a_token": "{"password": "x"}"}`)
    // it may be the opening quote of the next credential's key.
    at = value.end - 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

export const secretValueRule: ScrubRule = {
  name: 'secret',
  apply: (text, replaced) => ((text.includes('=') || text.includes(':')) && ANY_FRAGMENT.test(text) ? replaceValues(text, replaced) : text),
};
