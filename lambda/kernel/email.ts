import { domainToASCII } from 'node:url';
import { charCount } from './clip';
import { EMAIL_MAX_CHARS } from './limits';

declare const storedForm: unique symbol;

/**
 * An address in its stored form: the identity of a contact, hashed into its
 * id. Only `normalizeEmail` makes one, so the upsert, the read by email and
 * every other path derive the same id from the same text.
 */
export type StoredEmail = string & { readonly [storedForm]: true };

export type EmailCheck = { ok: true; email: StoredEmail } | { ok: false; problem: string };

const SYMBOLS = "!#$%&'*+-/=?^_`{|}~";
/** Before the "@": RFC 5322 atext (ASCII letters, digits, SYMBOLS) and dots, plus any letter, decimal digit or combining mark. */
const LOCAL_CHARS = /^[\p{L}\p{M}\p{Nd}.!#$%&'*+\-/=?^_`{|}~]*$/u;
/** After the "@": a host name's letters (any script), decimal digits, combining marks, hyphens and dots. */
const DOMAIN_CHARS = /^[\p{L}\p{M}\p{Nd}.-]*$/u;
/** Printable ASCII: NFC already, and lowercased letter by letter by `toLowerCase`. */
const ASCII = /^[\x20-\x7e]*$/;
/** A combining mark that does not follow a letter, a digit or another mark. */
const STRAY_MARK = /(?:^|[^\p{L}\p{M}\p{Nd}])(\p{M})/u;
const MAX_LABEL = 63;
const MAX_ASCII_DOMAIN = 253;

const codePoint = (char: string) => `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/** A character as a message shows it: visible ones quoted, every one by its code point. */
function describe(char: string): string {
  if (/^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(char)) return `${JSON.stringify(char)} (${codePoint(char)})`;
  const kind = /^\p{Cc}$/u.test(char)
    ? 'a control character'
    : /^[\s\p{Z}]$/u.test(char)
      ? 'a space'
      : /^\p{Cs}$/u.test(char)
        ? 'a lone surrogate'
        : /^\p{Cn}$/u.test(char)
          ? 'an unassigned code point'
          : /^\p{Co}$/u.test(char)
            ? 'a private-use character'
            : 'an invisible character';
  return `${codePoint(char)} (${kind})`;
}

/**
 * True when `upper` and `lower` are a simple case pair: each is the other's
 * one-character case mapping. A capital letter is accepted only when it is
 * the one uppercase of its lowercase, so lowercasing never makes one address
 * of two that differ in more than letter case (KELVIN SIGN K, İ, ẞ, ϴ and
 * titlecase ǅ are not such capitals).
 */
function isSimpleCasePair(upper: string, lower: string): boolean {
  return upper !== lower && upper.toLowerCase() === lower && lower.toUpperCase() === upper && charCount(lower) === 1;
}

function hostNameProblem(domain: string): string | undefined {
  const needs = 'email needs a host name like example.com after the "@"';
  if (domain.startsWith('.') || domain.endsWith('.') || domain.includes('..')) {
    return `${needs}: no dot at its start or end and no two dots in a row`;
  }
  const labels = domain.split('.');
  if (labels.length < 2) return `${needs}: at least two labels separated by a dot`;
  let asciiLength = labels.length - 1;
  for (const label of labels) {
    if (label.startsWith('-') || label.endsWith('-')) {
      return `${needs}: a label must not begin or end with a hyphen (got ${JSON.stringify(label)})`;
    }
    const plain = ASCII.test(label);
    const length = plain ? label.length : charCount(label);
    if (length > MAX_LABEL) return `${needs}: each label at most ${MAX_LABEL} characters (one has ${length})`;
    // An international label (non-ASCII, or already ASCII-encoded as xn--) must have a valid IDNA form.
    const international = !plain || label.startsWith('xn--');
    const ascii = international ? domainToASCII(label) : label;
    if (ascii === '' || ascii.includes('.') || ascii.length > MAX_LABEL) {
      return `${needs}: an international label must have a valid ASCII (IDNA) form of at most ${MAX_LABEL} characters (got ${JSON.stringify(label)})`;
    }
    asciiLength += ascii.length;
  }
  if (!/\p{L}/u.test(labels[labels.length - 1] as string)) return `${needs}: its last label must have a letter`;
  if (asciiLength > MAX_ASCII_DOMAIN) return `${needs}: at most ${MAX_ASCII_DOMAIN} characters in its ASCII (IDNA) form (got ${asciiLength})`;
  return undefined;
}

/**
 * Lowercases a non-ASCII address letter by letter, or says why that cannot
 * be done unambiguously: input not in NFC, a stray combining mark, a capital
 * without a simple case pair, a capital whose lowercase depends on its
 * neighbours (final Σ), a lowercase that NFC would change.
 */
function lowercaseUnicode(email: string): { ok: true; lowered: string } | { ok: false; problem: string } {
  const fail = (problem: string) => ({ ok: false as const, problem });
  if (email.normalize('NFC') !== email) {
    const changed = [...email].find((char) => char.normalize('NFC') !== char);
    return fail(
      changed === undefined
        ? 'email must be in Unicode NFC: send a letter and its combining mark as the one precomposed character'
        : `email must be in Unicode NFC: ${describe(changed)} is written ${describe(changed.normalize('NFC'))} there`,
    );
  }
  const stray = STRAY_MARK.exec(email);
  if (stray) return fail(`email must not contain a combining mark (${codePoint(stray[1] as string)}) that does not follow a letter or digit`);
  let lowered = '';
  for (const char of email) {
    const lower = char.toLowerCase();
    if (lower !== char && !isSimpleCasePair(char, lower)) {
      return fail(`email contains ${describe(char)}, a capital without a one-letter lowercase that maps back to it; send the address in lowercase`);
    }
    lowered += lower;
  }
  // Unicode's context rules lowercase a final capital sigma to ς, elsewhere σ: refuse rather than pick one.
  const inContext = email.toLowerCase();
  if (inContext !== lowered) {
    const perLetter = [...lowered];
    const at = [...inContext].findIndex((char, i) => char !== perLetter[i]);
    return fail(`email contains ${describe([...email][at] as string)}, whose lowercase depends on the letters around it; send the address in lowercase`);
  }
  if (lowered.normalize('NFC') !== lowered) {
    return fail('email is not in Unicode NFC once lowercased (a capital and a combining mark compose in lowercase); send the address in lowercase');
  }
  return { ok: true, lowered };
}

/**
 * Validates an email address and returns its stored form (docs/contacts-api.md#email-addresses):
 * surrounding whitespace dropped, then lowercased letter by
 * letter. Everything that would make that form ambiguous is refused rather
 * than guessed: input not in Unicode NFC, capitals without a simple case
 * pair, a capital whose lowercase depends on its neighbours (final Σ).
 * Identity input is never truncated (docs/contacts-api.md#upsert-a-contact--post-apiv1contacts, docs/contacts-api.md#limits).
 */
export function normalizeEmail(raw: string): EmailCheck {
  const fail = (problem: string): EmailCheck => ({ ok: false, problem });
  const email = raw.trim();
  if (email === '') return fail('email is required');
  // UTF-16 length bounds the code point count: count only when it could be over.
  const length = email.length > EMAIL_MAX_CHARS ? charCount(email) : email.length;
  if (length > EMAIL_MAX_CHARS) return fail(`email must be at most ${EMAIL_MAX_CHARS} characters (got ${length})`);
  const parts = email.split('@');
  if (parts.length !== 2) return fail(`email must contain exactly one "@" (found ${parts.length - 1})`);
  const [local, domain] = parts as [string, string];
  if (local === '') return fail('email needs a name before the "@"');
  if (domain === '') return fail('email needs a host name like example.com after the "@"');

  if (!LOCAL_CHARS.test(local)) {
    const char = [...local].find((c) => !LOCAL_CHARS.test(c)) as string;
    return fail(`email must not contain ${describe(char)}: before the "@" use letters, digits, combining marks, dots and ${SYMBOLS}`);
  }
  if (!DOMAIN_CHARS.test(domain)) {
    const char = [...domain].find((c) => !DOMAIN_CHARS.test(c)) as string;
    return fail(`email must not contain ${describe(char)} after the "@": a host name has letters, digits, hyphens and dots`);
  }
  let lowered = email.toLowerCase();
  if (!ASCII.test(email)) {
    const unicode = lowercaseUnicode(email);
    if (!unicode.ok) return unicode;
    lowered = unicode.lowered;
  }
  const [storedLocal, storedDomain] = lowered.split('@') as [string, string];
  if (storedLocal.startsWith('.') || storedLocal.endsWith('.') || storedLocal.includes('..')) {
    return fail('email must not have a dot at the start or end of the name before the "@", or two dots in a row');
  }
  const hostProblem = hostNameProblem(storedDomain);
  if (hostProblem !== undefined) return fail(hostProblem);
  return { ok: true, email: lowered as StoredEmail };
}
