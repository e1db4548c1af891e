import { normalizeEmail } from '../../lambda/domain/email';

describe('normalizeEmail', () => {
  test('trims and lowercases', () => {
    expect(normalizeEmail('  Ada.Lovelace+CRM@Example.COM ')).toEqual({ ok: true, email: 'ada.lovelace+crm@example.com' });
  });

  test('counts the length of the stored (lowercased) form too', () => {
    const dotted = `${'İ'.repeat(100)}${'a'.repeat(142)}@example.com`;
    expect(dotted).toHaveLength(254);
    expect(normalizeEmail(dotted)).toEqual({ ok: false, problem: 'email must be at most 254 characters (got 354)' });
  });

  test('accepts 254 characters and refuses 255, never truncating', () => {
    const at254 = `${'a'.repeat(242)}@example.com`;
    expect(normalizeEmail(at254)).toEqual({ ok: true, email: at254 });
    const at255 = `a${at254}`;
    expect(normalizeEmail(at255)).toEqual({ ok: false, problem: 'email must be at most 254 characters (got 255)' });
  });

  test.each([
    ['', /required/],
    ['ada', /exactly one "@" \(found 0\)/],
    ['a@b@c.com', /exactly one "@" \(found 2\)/],
    ['@example.com', /name before/],
    ['ada@', /domain/],
    ['ada@localhost', /domain/],
    ['ada@example..com', /domain/],
    ['ada lovelace@example.com', /spaces/],
    ['ada@exam\tple.com', /control/],
    ['<ada@example.com>', /<>/],
    ['ada\u200b@example.com', /invisible/],
    ['ada\u202e@example.com', /invisible/],
    ['ada\u0000@example.com', /control/],
    ['ada\ud800@example.com', /invisible/],
    ['ada\u00a0lovelace@example.com', /spaces/],
  ])('refuses %j', (input, problem) => {
    const result = normalizeEmail(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toMatch(problem);
  });
});
