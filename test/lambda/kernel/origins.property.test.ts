import fc from 'fast-check';
import { normalizeAllowedOrigin, normalizeRequestOrigin, originMatches } from '../../../lambda/kernel/origins';

/** A DNS label: letters, digits and inner hyphens. */
const label = fc
  .stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,10}[a-z0-9])?$/)
  // Hyphens in the 3rd and 4th places are reserved for IDNA (`xn--…` must be valid punycode): not an ordinary label.
  .filter((text) => text.slice(2, 4) !== '--');
/** A domain of two labels or more, its last one not all digits (as a wildcard needs). */
const domain = fc
  .tuple(fc.array(label, { minLength: 1, maxLength: 3 }), fc.stringMatching(/^[a-z][a-z0-9]{1,5}$/))
  .map(([labels, tld]) => [...labels, tld].join('.'));
const scheme = fc.constantFrom('http', 'https');
const port = fc.oneof(
  fc.constant(''),
  fc.integer({ min: 1, max: 65_535 }).map((p) => `:${p}`),
);
/** The port a browser would put in the Origin: none for the scheme's default. */
const serialized = (s: string, host: string, p: string) => `${s}://${host}${p === ':80' && s === 'http' ? '' : p === ':443' && s === 'https' ? '' : p}`;

describe('the origin matcher (property)', () => {
  test('a wildcard never matches its apex', () => {
    fc.assert(
      fc.property(scheme, domain, port, (s, d, p) => {
        expect(originMatches(`${s}://*.${d}${p}`, serialized(s, d, p))).toBe(false);
      }),
    );
  });

  test('a wildcard never matches a look-alike: the name glued to something, or followed by more labels', () => {
    fc.assert(
      fc.property(scheme, domain, label, domain, (s, d, glue, more) => {
        // (A "look-alike" that really is a subdomain, e.g. more = "x." + d, is none.)
        fc.pre(!more.endsWith(`.${d}`) && more !== d);
        expect(originMatches(`${s}://*.${d}`, `${s}://${glue}${d}`)).toBe(false);
        expect(originMatches(`${s}://*.${d}`, `${s}://${d}.${more}`)).toBe(false);
        expect(originMatches(`${s}://*.${d}`, `${s}://x.${d}.${more}`)).toBe(false);
      }),
    );
  });

  test('a wildcard matches every subdomain at any depth, on the same scheme and port only', () => {
    fc.assert(
      fc.property(scheme, domain, fc.array(label, { minLength: 1, maxLength: 3 }), port, scheme, port, (s, d, sub, p, otherScheme, otherPort) => {
        const host = `${sub.join('.')}.${d}`;
        const allowed = normalizeAllowedOrigin(`${s}://*.${d}${p}`);
        if (!allowed.ok) throw new Error(allowed.problem);
        expect(originMatches(allowed.origin, serialized(s, host, p))).toBe(true);
        const same = serialized(otherScheme, host, otherPort) === serialized(s, host, p);
        expect(originMatches(allowed.origin, serialized(otherScheme, host, otherPort))).toBe(same);
      }),
    );
  });

  test('matches exactly when the host ends with "." + the domain and has labels before it', () => {
    const host = fc.oneof(
      domain,
      fc.tuple(label, domain).map(([a, b]) => `${a}.${b}`),
      fc.tuple(label, domain).map(([a, b]) => `${a}${b}`),
    );
    fc.assert(
      fc.property(domain, host, (d, h) => {
        const expected = h.endsWith(`.${d}`) && h.length > d.length + 1;
        expect(originMatches(`https://*.${d}`, `https://${h}`)).toBe(expected);
      }),
    );
  });

  test('an entry without a wildcard matches only itself (as a browser serializes it)', () => {
    fc.assert(
      fc.property(scheme, domain, port, scheme, domain, port, (s1, d1, p1, s2, d2, p2) => {
        const allowed = normalizeAllowedOrigin(`${s1}://${d1}${p1}`);
        const origin = normalizeRequestOrigin(`${s2}://${d2}${p2}`);
        if (!allowed.ok || origin === undefined) throw new Error('generated origins are valid');
        expect(originMatches(allowed.origin, origin)).toBe(serialized(s1, d1, p1) === serialized(s2, d2, p2));
      }),
    );
  });

  test('localhost is matched only by an entry naming it with that port, never by a wildcard', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 65_535 }), fc.integer({ min: 1, max: 65_535 }), domain, (listed, used, d) => {
        expect(originMatches(`http://localhost:${listed}`, `http://localhost:${used}`)).toBe(listed === used);
        expect(originMatches(`http://*.${d}`, `http://localhost:${used}`)).toBe(false);
      }),
    );
  });

  test('normalizing is idempotent, case-insensitive and never throws', () => {
    const anyText = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.tuple(scheme, fc.boolean(), domain, port).map(([s, w, d, p]) => `${s}://${w ? '*.' : ''}${d}${p}`),
    );
    fc.assert(
      fc.property(anyText, (raw) => {
        const once = normalizeAllowedOrigin(raw);
        if (!once.ok) return;
        expect(normalizeAllowedOrigin(once.origin)).toEqual(once);
        expect(normalizeAllowedOrigin(raw.toUpperCase())).toEqual(once);
      }),
    );
  });
});
