import { normalizeEmail } from '../../../lambda/kernel/email';

const accepted = (input: string) => {
  const result = normalizeEmail(input);
  return result.ok ? result.email : `refused: ${result.problem}`;
};

describe('normalizeEmail', () => {
  test('trims and lowercases', () => {
    expect(normalizeEmail('  Ada.Lovelace+CRM@Example.COM ')).toEqual({ ok: true, email: 'ada.lovelace+crm@example.com' });
  });

  test('accepts 254 characters and refuses 255, never truncating', () => {
    const at254 = `${'a'.repeat(242)}@example.com`;
    expect(normalizeEmail(at254)).toEqual({ ok: true, email: at254 });
    const at255 = `a${at254}`;
    expect(normalizeEmail(at255)).toEqual({ ok: false, problem: 'email must be at most 254 characters (got 255)' });
  });

  test.each([
    ["!#$%&'*+-/=?^_`{|}~@example.com", "!#$%&'*+-/=?^_`{|}~@example.com"],
    ['Søren.Kierkegaard@Example.DK', 'søren.kierkegaard@example.dk'],
    ['ÉLODIE@EXAMPLE.FR', 'élodie@example.fr'],
    ['Σοφία@example.gr', 'σοφία@example.gr'],
    ['ΝΊΚΟΣ.Π@example.gr', 'νίκοσ.π@example.gr'],
    ['νίκος@example.gr', 'νίκος@example.gr'],
    ['Straße@example.de', 'straße@example.de'],
    ['Ǆemal@example.ba', 'ǆemal@example.ba'],
    ['josé@MÜNCHEN.de', 'josé@münchen.de'],
    ['a@xn--mnchen-3ya.de', 'a@xn--mnchen-3ya.de'],
    ['a@1example.com', 'a@1example.com'],
    ['a@a-b.c--d.io', 'a@a-b.c--d.io'],
    ['李@例子.中国', '李@例子.中国'],
    [`a@${'x'.repeat(63)}.com`, `a@${'x'.repeat(63)}.com`],
    ['q\u0301@example.com', 'q\u0301@example.com'],
  ])('accepts %j as %j', (input, storedForm) => {
    expect(accepted(input)).toBe(storedForm);
  });

  test.each([
    ['', /required/],
    ['ada', /exactly one "@" \(found 0\)/],
    ['a@b@c.com', /exactly one "@" \(found 2\)/],
    ['@example.com', /name before/],
    ['ada@', /host name like example\.com after the "@"$/],
    ['ada@localhost', /at least two labels/],
    ['ada lovelace@example.com', /U\+0020 \(a space\)/],
    ['ada@exam\tple.com', /U\+0009 \(a control character\) after the "@"/],
    ['<ada@example.com>', /"<" \(U\+003C\)/],
    ['"ada"@example.com', /"\\"" \(U\+0022\)/],
    ['ada@[127.0.0.1]', /"\[" \(U\+005B\) after the "@"/],
    ['ada\u200b@example.com', /U\+200B \(an invisible character\)/],
    ['ada\u202e@example.com', /U\+202E \(an invisible character\)/],
    ['ada\u0000@example.com', /U\+0000 \(a control character\)/],
    ['ada\ud800@example.com', /U\+D800 \(a lone surrogate\)/],
    ['ada\u00a0lovelace@example.com', /U\+00A0 \(a space\)/],
  ])('refuses %j', (input, problem) => {
    const result = normalizeEmail(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toMatch(problem);
  });
});

// Issue 15, item 1: lowercasing must never make one address of two that differ in more than letter case.
describe('normalizeEmail refuses what it cannot lowercase unambiguously', () => {
  test.each([
    ['\u212Aa@example.com', 'KELVIN SIGN, which NFC makes K', /NFC: "\u212A" \(U\+212A\) is written "K" \(U\+004B\)/],
    ['\u212Bngstr\u00f6m@example.com', 'ANGSTROM SIGN', /NFC: "\u212B" \(U\+212B\) is written "\u00C5" \(U\+00C5\)/],
    ['\u2126@example.com', 'OHM SIGN', /NFC: "\u2126" \(U\+2126\) is written "\u03A9" \(U\+03A9\)/],
    ['e\u0301@example.com', 'a decomposed é', /NFC: send a letter and its combining mark as the one precomposed character/],
    ['\u0130stanbul@example.com', 'İ, whose lowercase is i + U+0307', /"İ" \(U\+0130\), a capital without a one-letter lowercase/],
    ['stra\u1E9Ee@example.de', 'ẞ, whose lowercase ß uppercases to SS', /"ẞ" \(U\+1E9E\)/],
    ['\u03F4eta@example.gr', 'ϴ, whose lowercase θ is also the lowercase of Θ', /"ϴ" \(U\+03F4\)/],
    ['\u01C5emal@example.ba', 'titlecase ǅ, whose lowercase ǆ is also that of Ǆ', /"ǅ" \(U\+01C5\)/],
    ['NIKO\u03A3@example.gr', 'a final Σ, lowercased to ς there and σ elsewhere', /"Σ" \(U\+03A3\), whose lowercase depends on the letters around it/],
    ['H\u0331@example.com', 'H + U+0331, whose lowercase composes to ẖ', /not in Unicode NFC once lowercased/],
  ])('%j (%s)', (input, _why, problem) => {
    const result = normalizeEmail(input);
    expect(result).toEqual({ ok: false, problem: expect.stringMatching(problem) });
  });

  test('the Kelvin sign and İ no longer land on the address of K and i', () => {
    expect(normalizeEmail('\u212Aa@example.com').ok).toBe(false);
    expect(accepted('Ka@example.com')).toBe('ka@example.com');
    expect(normalizeEmail('\u0130stanbul@example.com').ok).toBe(false);
    expect(accepted('Istanbul@example.com')).toBe('istanbul@example.com');
  });

  test('a combining mark must follow a letter or digit', () => {
    expect(normalizeEmail('\u0301a@example.com')).toEqual({ ok: false, problem: expect.stringMatching(/combining mark \(U\+0301\)/) });
    expect(normalizeEmail('a.\u0301b@example.com').ok).toBe(false);
    expect(normalizeEmail('a@\u0301b.com').ok).toBe(false);
  });
});

// Issue 15, item 2: the local part is a dot-atom, the domain a host name.
describe('normalizeEmail applies the dot-atom and host name rules', () => {
  test.each([
    ['.a@example.com', /dot at the start or end of the name before the "@", or two dots in a row/],
    ['a.@example.com', /dot at the start or end of the name/],
    ['a..b@example.com', /two dots in a row/],
    ['a@-example.com', /a label must not begin or end with a hyphen \(got "-example"\)/],
    ['a@example-.com', /a label must not begin or end with a hyphen \(got "example-"\)/],
    ['a@example..com', /no dot at its start or end and no two dots in a row/],
    ['a@.example.com', /no dot at its start or end/],
    ['a@example.com.', /no dot at its start or end/],
    ['a@exa_mple.com', /"_" \(U\+005F\) after the "@": a host name has letters, digits, hyphens and dots/],
    ['a@1.2.3.4', /its last label must have a letter/],
    [`a@${'x'.repeat(64)}.com`, /each label at most 63 characters \(one has 64\)/],
    ['a@xn--zz.com', /an international label must have a valid ASCII \(IDNA\) form of at most 63 characters \(got "xn--zz"\)/],
    [`a@${'ü'.repeat(60)}.com`, /an international label must have a valid ASCII \(IDNA\) form of at most 63 characters/],
    // 108 characters as sent, 308 in ASCII.
    [`a@${Array(5).fill('的一是不了在人有我他这个们中来上大和国地').join('.')}.com`, /at most 253 characters in its ASCII \(IDNA\) form \(got 308\)/],
  ])('refuses %j', (input, problem) => {
    expect(normalizeEmail(input)).toEqual({ ok: false, problem: expect.stringMatching(problem) });
  });
});
