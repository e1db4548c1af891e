import { looksLikeCredential, marker, MARKER, type ScrubRule } from './rule';

/**
 * Values of password-, secret-, token-, api-key- and auth-like keys:
 *   - in query strings and key=value text: `?password=hunter2&x=1`, `token=abc`;
 *   - JSON-ish, quoted, escaped or not: `"apiKey": "abc"`, `{\"secret\":\"abc\"}`, `'auth': 'abc'`;
 *   - `key: value` unquoted, when the value looks like a credential
 *     (`X-Api-Key: 9f2c…`), so that "Invalid token: expired" stays;
 *   - a tag whose name is such a key (the tags reader asks isSensitiveKey).
 * The key stays (it says what was there), the value becomes the marker.
 */

/** Parts of a key, with separators and digits removed, that make it sensitive wherever they appear ("csrftoken", "db_password"). */
const SENSITIVE_PART = /pass(?:word|wd|phrase)|secret|token|api_?key|private_?key|access_?key|credential|bearer|session_?id|jwt/;
/** Whole words that do (not inside another: "author" is not "auth"). */
const SENSITIVE_WORDS = new Set([
  'auth',
  'authorization',
  'authentication',
  'oauth',
  'pass',
  'pwd',
  'passwd',
  'session',
  'cookie',
  'sig',
  'signature',
  'apikey',
]);

/** Whether a key (a query parameter, a JSON key, a tag name) names a credential: `password`, `X-Auth-Token`, `client_secret`, `apiKey`, `sig`. */
export function isSensitiveKey(key: string): boolean {
  const lower = key.toLowerCase();
  if (SENSITIVE_PART.test(lower.replace(/[^a-z_]/g, '').replace(/_/g, '')) || SENSITIVE_PART.test(lower.replace(/[^a-z_]/g, ''))) return true;
  // camelCase and every separator split words: "xAuthToken" → x, auth, token.
  const words = key.split(/[^A-Za-z]+|(?<=[a-z])(?=[A-Z])/).map((word) => word.toLowerCase());
  return words.some((word) => SENSITIVE_WORDS.has(word));
}

/**
 * A key holding a fragment of a credential's name (only those are worth
 * asking isSensitiveKey: the scan stays fast over a 16 KB stack), quoted
 * (optionally with JSON's escaping backslash) or not, a `=` or
 * `:`, then a value: quoted (up to the same quote), or unquoted (up to
 * whitespace or a delimiter), optionally after an auth scheme word.
 * Groups: 1 key quote, 2 key, 3 separator, 4 value quote, 5 quoted value,
 * 6 scheme, 7 unquoted value.
 */
const KEY_VALUE =
  /(?<![A-Za-z0-9_.-])(\\?["']?)((?:[A-Za-z_][A-Za-z0-9_.-]*?)?(?:pass|pwd|secret|token|key|auth|credential|bearer|session|jwt|cookie|sig)[A-Za-z0-9_.-]*)\1\s*(=(?!=)|:(?!\/\/))[ \t]*(?:(\\?["'])((?:(?!\4)[^\n])*)\4|((?:bearer|basic)[ \t]+)?(\[Filtered:[a-z-]+\]|[^\s&#;,()[\]{}"'<>\\]+))/gi;

/**
 * Scanned by hand rather than with String.replace: a key that is not a
 * credential's (`refused: password=…`, `{"note": "?token=…"}`) must not
 * swallow its value, where a credential's key may sit. The scan goes on
 * right after such a key.
 */
function replaceValues(text: string, replaced: () => void): string {
  const pattern = new RegExp(KEY_VALUE.source, KEY_VALUE.flags);
  let out = '';
  let copied = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const [whole, keyQuote = '', key = '', separator = '', valueQuote, quoted, , bare] = match;
    const value = quoted ?? bare ?? '';
    const keep =
      !isSensitiveKey(key) ||
      value === '' ||
      MARKER.test(value) ||
      // "Invalid token: expired" is prose; `"token": "expired"` and `X-Api-Key: 9f2c…` are not.
      (separator === ':' && keyQuote === '' && valueQuote === undefined && !looksLikeCredential(value));
    if (keep) {
      pattern.lastIndex = match.index + keyQuote.length + key.length;
      continue;
    }
    replaced();
    // The value's closing quote is read again: in text that is not quite JSON (`{"a_token": "{"password": "x"}"}`)
    // it may be the opening quote of the next credential's key.
    const valueEnd = match.index + whole.length - (valueQuote?.length ?? 0);
    out += `${text.slice(copied, valueEnd - value.length)}${marker('secret')}`;
    copied = valueEnd;
    pattern.lastIndex = valueEnd;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** A text without any of these holds no credential's key: most stacks and messages, passed over in one fast test. */
const ANY_FRAGMENT = /pass|pwd|secret|token|key|auth|credential|bearer|session|jwt|cookie|sig/i;

export const secretValueRule: ScrubRule = {
  name: 'secret',
  apply: (text, replaced) => ((text.includes('=') || text.includes(':')) && ANY_FRAGMENT.test(text) ? replaceValues(text, replaced) : text),
};
