import fc from 'fast-check';
import { charCount } from '../../lambda/domain/clip';
import { normalizeEmail } from '../../lambda/domain/email';
import { sentEmail, storedEmail } from '../../tools/fuzz/values';

const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ unit: 'grapheme-ascii', maxLength: 80 }));

describe('normalizeEmail (property)', () => {
  test('accepts every address the README allows, as its trimmed lowercase form, never truncated', () => {
    fc.assert(
      fc.property(sentEmail(), ({ raw, stored }) => {
        expect(normalizeEmail(raw)).toEqual({ ok: true, email: stored });
      }),
    );
  });

  test('is idempotent: an accepted address normalizes to itself', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, sentEmail().map((e) => e.raw)), (raw) => {
        const first = normalizeEmail(raw);
        if (first.ok) expect(normalizeEmail(first.email)).toEqual(first);
      }),
    );
  });

  test('ignores case: an address and its lowercase form give the same answer', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, sentEmail().map((e) => e.raw)), (raw) => {
        const result = normalizeEmail(raw);
        if (result.ok) expect(normalizeEmail(raw.toLowerCase())).toEqual(result);
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii', maxLength: 60 }), (raw) => {
        expect(normalizeEmail(raw.toUpperCase())).toEqual(normalizeEmail(raw));
      }),
    );
  });

  test('whatever it accepts has at most 254 characters, one "@", a name, a dotted domain and no whitespace or control', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, sentEmail().map((e) => e.raw)), (raw) => {
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
      }),
    );
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
