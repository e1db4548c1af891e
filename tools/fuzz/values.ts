/**
 * Field values, built from the rules of docs/contacts-api.md rather than from the code:
 * addresses it accepts and refuses, company domains with the stored form
 * they must normalize to, free text of every kind, key-shaped tokens.
 */
import fc from 'fast-check';

/**
 * The one capital of a letter, when the email rule (docs/contacts-api.md#email-addresses) accepts it: a
 * single character whose lowercase is `char` again (so `ß`, `ς`, `ı` have none).
 */
export function capitalOf(char: string): string | undefined {
  const upper = char.toUpperCase();
  return upper !== char && [...upper].length === 1 && upper.toLowerCase() === char ? upper : undefined;
}

/** Upper-cases the letters `mask` picks (bit i for character i mod 31): a case variant that shrinks to none. */
export function withCase(text: string, mask: number): string {
  let out = '';
  let i = 0;
  for (const char of text) {
    out += (mask >> (i % 31)) & 1 ? (capitalOf(char) ?? char) : char;
    i += 1;
  }
  return out;
}

export const caseVariant = (text: fc.Arbitrary<string>) => fc.tuple(text, fc.nat()).map(([value, mask]) => withCase(value, mask));

// A label starting `xn--` is an encoded international name: only a valid encoding is a host
// (`xn--0` decodes to a control character and is refused), so plain labels never take that prefix.
const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,8}[a-z0-9])?$/).filter((text) => !text.startsWith('xn--'));
const tld = fc.constantFrom('com', 'io', 'co.uk', 'de', 'org', 'dev');

/** A lowercase ASCII host whose first label is not `www`: its own normalized form. */
export const host = fc
  .tuple(fc.array(label, { minLength: 1, maxLength: 2 }), tld)
  .map(([labels, suffix]) => [...labels, suffix].join('.'))
  .filter((name) => !name.startsWith('www.'));

/**
 * A company domain as a caller may paste it, with the form docs/contacts-api.md#upsert-a-contact--post-apiv1contacts says
 * is stored: scheme, leading `www.`, path, trailing slash, port and case
 * dropped; an international name in its ASCII form.
 */
export const companyDomain: fc.Arbitrary<{ raw: string; stored: string }> = fc.oneof(
  fc
    .record({
      name: host,
      scheme: fc.constantFrom('', 'http://', 'https://', 'HTTPS://'),
      www: fc.constantFrom('', 'www.', 'WWW.'),
      port: fc.constantFrom('', ':8080', ':443'),
      path: fc.constantFrom('', '/', '/about', '/a/b?x=1#top'),
      mask: fc.nat(),
      pad: fc.constantFrom('', ' ', '\t'),
    })
    .map(({ name, scheme, www, port, path, mask, pad }) => ({
      raw: `${pad}${scheme}${www}${withCase(name, mask)}${port}${path}${pad}`,
      stored: name,
    })),
  fc.constantFrom(
    { raw: 'münchen.de', stored: 'xn--mnchen-3ya.de' },
    { raw: 'https://www.MÜNCHEN.de/', stored: 'xn--mnchen-3ya.de' },
    { raw: 'xn--mnchen-3ya.de', stored: 'xn--mnchen-3ya.de' },
    { raw: 'acme.io', stored: 'acme.io' },
    { raw: 'https://www.Acme.io/', stored: 'acme.io' },
  ),
);

/** Not a domain by any reading: 422 when sent as `companyDomain`. */
export const notADomain = fc.constantFrom('acme', 'not a domain', 'http://', 'https:///', '-', '.', '..', 'a..b', 'localhost', 'acme .io');

/** docs/contacts-api.md#email-addresses: ASCII letters, digits and these symbols, plus non-ASCII letters, digits and marks. */
const ATOM_SYMBOLS = "!#$%&'*+/=?^_`{|}~-";
const atom = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^[a-z0-9]{1,8}$/) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(...'abz09', ...ATOM_SYMBOLS), { minLength: 1, maxLength: 6 }).map((chars) => chars.join('')) },
  // Non-ASCII names; a final σ is avoided (its capital would be a final Σ, which docs/contacts-api.md#email-addresses refuses).
  {
    weight: 1,
    arbitrary: fc.constantFrom('søren', 'josé', 'zoë', 'ünï', 'σοφία', 'дмитрий', 'straße', 'ǆemal', 'q\u0301', 'ärzte', 'ñandú', '李', 'αβγ', 'ı'),
  },
);

/** A dot-atom: atoms joined by single dots. */
const localPart = fc.array(atom, { minLength: 1, maxLength: 3 }).map((atoms) => atoms.join('.'));

/** An address docs/contacts-api.md#email-addresses accepts, in its stored form (lowercase, trimmed). */
export const storedEmail = fc
  .tuple(
    localPart,
    fc.oneof({ weight: 6, arbitrary: host }, { weight: 1, arbitrary: fc.constantFrom('münchen.de', 'xn--mnchen-3ya.de', 'пример.рф', 'ελλάδα.gr') }),
  )
  .map(([local, domain]) => `${local}@${domain}`);

/** An accepted address as a caller may send it (any case, padded), with its stored form. */
export const sentEmail = (pool: string[] = []) =>
  fc
    .record({
      stored: pool.length > 0 ? fc.oneof(storedEmail, fc.constantFrom(...pool)) : storedEmail,
      mask: fc.nat(),
      pad: fc.constantFrom('', ' ', '  ', '\t'),
    })
    .map(({ stored, mask, pad }) => ({ raw: `${pad}${withCase(stored, mask)}${pad}`, stored }));

/** Strings docs/contacts-api.md#email-addresses says are not an address (422), each for its own reason (all well-formed: they also go into URLs). */
export const invalidEmail = fc.oneof(
  fc.constantFrom(
    '',
    '   ',
    'ada',
    'ada@',
    '@example.com',
    'a@b@example.com',
    'ada@example',
    'ada lovelace@example.com',
    'ada@exam ple.com',
    'ada\u0000@example.com',
    'ada\t@example.com',
    'ada\u200b@example.com',
    'ada\u202e@example.com',
    'ada@example.com\u0007',
    '"ada"@example.com',
    'ada@[127.0.0.1]',
    // Dot-atom and host name rules.
    '.ada@example.com',
    'ada.@example.com',
    'a..b@example.com',
    'ada@-example.com',
    'ada@example-.com',
    'ada@example..com',
    'ada@.example.com',
    'ada@example.com.',
    'ada@exa_mple.com',
    'ada@1.2.3.4',
    `ada@${'x'.repeat(64)}.com`,
    'ada@xn--zz.com',
    // Not NFC, or no unambiguous lowercase.
    '\u212Aa@example.com',
    '\u212Bngstr\u00f6m@example.com',
    '\u2126@example.com',
    'e\u0301@example.com',
    '\u0130stanbul@example.com',
    'stra\u1E9Ee@example.com',
    '\u03F4@example.com',
    '\u01C5emal@example.com',
    'a\u03A3@example.com',
    'H\u0331@example.com',
    '\u0301a@example.com',
  ),
  // Over 254 characters: refused, never truncated.
  fc.integer({ min: 255, max: 400 }).map((length) => `${'a'.repeat(length - 12)}@example.com`),
);

/**
 * Free text of every kind docs/contacts-api.md#free-text accepts: unicode, controls (stripped),
 * line breaks (made spaces), blanks and nulls (omitted), long (clipped).
 */
export const freeText: fc.Arbitrary<string | null> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom(null, '', '   ', '\t\n', '\u0000', 'a\r\nb', '\u202eevil\u202c', 'x\u0085y\u2028z') },
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 60, max: 3000 }), fc.constantFrom('x', 'é', '𝒜', '👩‍💻')).map(([n, c]) => c.repeat(n)) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
);

/** Text that is not well-formed Unicode (a lone surrogate): 422 in any free-text field. */
export const illFormedText = fc.constantFrom('a\ud800b', '\udc00', 'Ada \udbff', '\ud83d');

/** A key-shaped token (`dfsk_…`/`dfpk_…`) that no store knows. */
export const keyShaped = fc.stringMatching(/^df[sp]k_[A-Za-z0-9_-]{16,60}$/);

/** JSON values of any shape, for unknown fields and the fields no caller may set. */
export const anyJson = fc.jsonValue({ maxDepth: 3 });
