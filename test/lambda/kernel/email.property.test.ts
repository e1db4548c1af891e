import fc from 'fast-check';
import { charCount } from '../../../lambda/kernel/clip';
import { normalizeEmail } from '../../../lambda/kernel/email';
import { invalidEmail, sentEmail, storedEmail } from '../../../tools/fuzz/values';

const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ unit: 'grapheme-ascii', maxLength: 80 }));

/**
 * Families of letters whose case behaves oddly, each with its look-alikes
 * and case partners: addresses built from them collide under careless
 * lowercasing (KELVIN SIGN and K, İ and i, ẞ and ß, ϴ and Θ, final Σ,
 * decomposed é, titlecase ǅ, a capital whose lowercase composes).
 */
const FAMILIES = [
  ['k', 'K', '\u212A'],
  ['i', 'I', '\u0130', '\u0131', 'i\u0307'],
  ['s', 'S', '\u017F'],
  ['ß', '\u1E9E', 'ss', 'SS'],
  ['σ', 'Σ', 'ς'],
  ['θ', 'Θ', '\u03F4', '\u03D1'],
  ['å', 'Å', '\u212B', 'a\u030A', 'A\u030A'],
  ['ω', 'Ω', '\u2126'],
  ['é', 'É', 'e\u0301', 'E\u0301'],
  ['ǆ', 'ǅ', 'Ǆ', 'dž', 'DŽ'],
  ['ẖ', 'h\u0331', 'H\u0331'],
  ['a', 'A'],
  ['.', '-', '+'],
];
const DOMAINS = ['@example.com', '@EXAMPLE.com', '@ex\u212Ample.com', '@\u03C3.gr', '@\u03A3.gr'];

/** Two addresses spelled from the same families, so they often collide. */
const trickyPair = fc.array(fc.tuple(fc.nat(FAMILIES.length - 1), fc.nat(), fc.nat()), { minLength: 1, maxLength: 3 }).chain((letters) =>
  fc.tuple(fc.constantFrom(...DOMAINS), fc.constantFrom(...DOMAINS)).map(([da, db]) => {
    const spell = (pick: (choice: [number, number, number]) => number, domain: string) =>
      letters
        .map((choice) => {
          const family = FAMILIES[choice[0]] as string[];
          return family[pick(choice) % family.length];
        })
        .join('') + domain;
    return [spell((c) => c[1], da), spell((c) => c[2], db)] as const;
  }),
);
const trickyAddress = trickyPair.map(([a]) => a);

/**
 * "Differ only in letter case", stated without the code under test: the same
 * number of characters, each pair equal or a simple case pair (one is the
 * other's single-character lowercase, and that lowercase uppercases back to it).
 */
function differOnlyInCase(a: string, b: string): boolean {
  const [x, y] = [[...a], [...b]];
  if (x.length !== y.length) return false;
  const pair = (upper: string, lower: string) => upper.toLowerCase() === lower && lower.toUpperCase() === upper;
  return x.every((c, i) => {
    const d = y[i] as string;
    return c === d || pair(c, d) || pair(d, c);
  });
}

describe('normalizeEmail (property)', () => {
  test('accepts every address docs/contacts-api.md#email-addresses allows, as its trimmed lowercase form, never truncated', () => {
    fc.assert(
      fc.property(sentEmail(), ({ raw, stored }) => {
        expect(normalizeEmail(raw)).toEqual({ ok: true, email: stored });
      }),
    );
  });

  test('is idempotent: an accepted address normalizes to itself', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          anyText,
          trickyAddress,
          sentEmail().map((e) => e.raw),
        ),
        (raw) => {
          const first = normalizeEmail(raw);
          if (first.ok) expect(normalizeEmail(first.email)).toEqual(first);
        },
      ),
    );
  });

  test('ignores case: an address and its lowercase form give the same answer', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          anyText,
          sentEmail().map((e) => e.raw),
        ),
        (raw) => {
          const result = normalizeEmail(raw);
          if (result.ok) expect(normalizeEmail(raw.toLowerCase())).toEqual(result);
        },
      ),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii', maxLength: 60 }), (raw) => {
        expect(normalizeEmail(raw.toUpperCase())).toEqual(normalizeEmail(raw));
      }),
    );
  });

  test('whatever it accepts has at most 254 characters, one "@", a name, a dotted domain and no whitespace or control', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          anyText,
          sentEmail().map((e) => e.raw),
        ),
        (raw) => {
          const result = normalizeEmail(raw);
          if (!result.ok) return;
          const { email } = result;
          expect(email).toBe(raw.trim().toLowerCase());
          expect(charCount(email)).toBeLessThanOrEqual(254);
          const [local, domain, ...rest] = email.split('@');
          expect(rest).toEqual([]);
          expect(local).not.toBe('');
          expect(domain).toMatch(/^[^.]+(\.[^.]+)+$/);
          expect(email).not.toMatch(/[\s\p{Cc}\p{Cf}]/u);
        },
      ),
    );
  });

  test('never makes one stored form of two addresses that differ in more than letter case', () => {
    fc.assert(
      fc.property(trickyPair, ([a, b]) => {
        const [first, second] = [normalizeEmail(a), normalizeEmail(b)];
        if (!first.ok || !second.ok) return;
        if (first.email === second.email) expect({ a, b, onlyCase: differOnlyInCase(a, b) }).toEqual({ a, b, onlyCase: true });
        else expect({ a, b, onlyCase: differOnlyInCase(a, b) }).toEqual({ a, b, onlyCase: false });
      }),
      { numRuns: 20_000 },
    );
  });

  test('gives a stored form in NFC with no letter that lowercasing changes', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          trickyAddress,
          sentEmail().map((e) => e.raw),
          anyText,
        ),
        (raw) => {
          const result = normalizeEmail(raw);
          if (!result.ok) return;
          expect(result.email.normalize('NFC')).toBe(result.email);
          expect([...result.email].every((char) => char.toLowerCase() === char)).toBe(true);
        },
      ),
    );
  });

  test('refuses every address the fuzz values call invalid', () => {
    fc.assert(fc.property(invalidEmail, (raw) => expect(normalizeEmail(raw).ok).toBe(false)));
  });

  test('refuses an address over 254 characters instead of cutting it', () => {
    fc.assert(
      fc.property(storedEmail, fc.integer({ min: 255, max: 600 }), (email, length) => {
        const long = `${'a'.repeat(Math.max(1, length - charCount(email)))}${email}`;
        expect(normalizeEmail(long)).toEqual({ ok: false, problem: expect.stringMatching(/at most 254/) });
      }),
    );
  });

  test('refuses an address with a space, control or invisible character anywhere inside', () => {
    const bad = fc.constantFrom(' ', '\t', '\u0000', '\u0007', '\u007f', '\u00a0', '\u200b', '\u202e', '\u2028', '\ufeff');
    fc.assert(
      fc.property(storedEmail, bad, fc.nat(), (email, char, at) => {
        const i = 1 + (at % (email.length - 1)); // strictly inside: the ends would be trimmed
        const result = normalizeEmail(`${email.slice(0, i)}${char}${email.slice(i)}`);
        expect(result.ok).toBe(false);
      }),
    );
  });

  test('refuses anything without exactly one "@"', () => {
    fc.assert(
      fc.property(anyText, (raw) => {
        fc.pre(raw.split('@').length !== 2);
        expect(normalizeEmail(raw).ok).toBe(false);
      }),
    );
  });
});
