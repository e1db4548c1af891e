import fc from 'fast-check';
import { generateKey, hashSecret, readCredential, redactKeys } from '../../../lambda/kernel/api-key';

/** Real keys, fresh per run (the property's values decide where they go, not what they are). */
const key = fc.constantFrom(...Array.from({ length: 20 }, (_, i) => generateKey(i % 4 === 0 ? 'publishable' : 'secret').secret));
const text = fc.string({ unit: 'grapheme', maxLength: 40 });
/** What may sit right before a key in a path, a query or a message: letters and `_` included. */
const glue = fc.constantFrom('', ' ', '/', '=', '"', 'x', '_', '-', '9', 'Bearer ', '%20', '.');

describe('redactKeys (property)', () => {
  test('leaves no key in a text, wherever the key sits and whatever surrounds it', () => {
    fc.assert(
      fc.property(text, glue, key, glue, text, (before, left, secret, right, after) => {
        const redacted = redactKeys(`${before}${left}${secret}${right}${after}`);
        expect(redacted).not.toContain(secret);
        expect(redacted).not.toContain(secret.slice(5));
        expect(redacted).toContain(`${secret.slice(0, 5)}…`);
      }),
    );
  });

  test('is idempotent and leaves text without a key prefix alone', () => {
    fc.assert(
      fc.property(text, glue, key, text, (before, left, secret, after) => {
        const once = redactKeys(`${before}${left}${secret}${after}`);
        expect(redactKeys(once)).toBe(once);
      }),
    );
    fc.assert(
      fc.property(text, (plain) => {
        fc.pre(!/df[sp]k_/.test(plain));
        expect(redactKeys(plain)).toBe(plain);
      }),
    );
  });
});

describe('readCredential and hashSecret (property)', () => {
  const scheme = fc.constantFrom('Bearer', 'bearer', 'BEARER', 'bEaReR');
  const gap = fc.constantFrom(' ', '  ', '   ');
  const pad = fc.constantFrom('', ' ', '  ');

  test('reads a secret key from "Bearer <key>" in any case and spacing', () => {
    const secrets = fc.constantFrom(...Array.from({ length: 10 }, () => generateKey('secret').secret));
    fc.assert(
      fc.property(pad, scheme, gap, secrets, pad, (p1, s, g, secret, p2) => {
        expect(readCredential(`${p1}${s}${g}${secret}${p2}`)).toEqual({ kind: 'secret', secret });
      }),
    );
  });

  test('never reads a key from another scheme, or from a header holding more than the key', () => {
    const secrets = fc.constantFrom(...Array.from({ length: 10 }, () => generateKey('secret').secret));
    const other = fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,10}$/).filter((s) => s.toLowerCase() !== 'bearer');
    fc.assert(
      fc.property(other, secrets, (s, secret) => {
        expect(readCredential(`${s} ${secret}`).kind).not.toBe('secret');
        expect(readCredential(`Bearer ${secret} ${s}`).kind).not.toBe('secret');
      }),
    );
  });

  test('stores a key as 64 hex characters that hold no part of it', () => {
    fc.assert(
      fc.property(key, (secret) => {
        const hash = hashSecret(secret);
        expect(hash).toMatch(/^[0-9a-f]{64}$/);
        expect(hash).not.toContain(secret.slice(5, 15));
      }),
    );
  });
});
