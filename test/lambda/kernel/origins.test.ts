import { normalizeAllowedOrigin, normalizeOriginList, normalizeRequestOrigin, originAllowed, originMatches } from '../../../lambda/kernel/origins';

describe('normalizeAllowedOrigin', () => {
  test.each([
    ['https://App.Example.COM', 'https://app.example.com'],
    ['https://app.example.com:443', 'https://app.example.com'],
    ['http://app.example.com:80/', 'http://app.example.com'],
    ['  https://app.example.com/  ', 'https://app.example.com'],
    ['http://localhost:5173', 'http://localhost:5173'],
    ['https://*.Example.com', 'https://*.example.com'],
    ['https://*.example.com:8443', 'https://*.example.com:8443'],
    ['https://münchen.example', 'https://xn--mnchen-3ya.example'],
    ['http://[::1]:8080', 'http://[::1]:8080'],
    ['http://127.0.0.1:3000', 'http://127.0.0.1:3000'],
  ])('%s is %s', (raw, origin) => {
    expect(normalizeAllowedOrigin(raw)).toEqual({ ok: true, origin });
  });

  test.each([
    '*',
    'null',
    'NULL',
    '',
    'https://a.com/x',
    'https://a.com#x',
    'ws://a.com',
    'file:///etc',
    'https://*.com',
    'https://*.*.a.com',
    'https://*a.com',
    'https://*.1.2.3',
    'https://',
    'a.com',
  ])('%j is refused', (raw) => {
    expect(normalizeAllowedOrigin(raw)).toMatchObject({ ok: false, problem: expect.any(String) });
  });

  test('a list is 1 to 50 origins, duplicates (after normalizing) dropped', () => {
    expect(normalizeOriginList(['https://a.com', 'HTTPS://A.COM:443'])).toEqual({ ok: true, origins: ['https://a.com'] });
    expect(normalizeOriginList([])).toMatchObject({ ok: false });
    expect(normalizeOriginList(Array.from({ length: 50 }, (_, i) => `https://s${i}.a.com`))).toMatchObject({ ok: true });
    expect(normalizeOriginList(Array.from({ length: 51 }, (_, i) => `https://s${i}.a.com`))).toMatchObject({ ok: false });
  });
});

describe('normalizeRequestOrigin', () => {
  test('reads what browsers send, and refuses what no key can list', () => {
    expect(normalizeRequestOrigin('https://App.example.com:443')).toBe('https://app.example.com');
    for (const header of ['null', '', 'https://a.com/path', 'chrome-extension://abc', 'https://*.a.com', 'https://a.com, https://b.com']) {
      expect(normalizeRequestOrigin(header)).toBeUndefined();
    }
  });
});

describe('originMatches', () => {
  test.each([
    ['https://*.example.com', 'https://app.example.com', true],
    ['https://*.example.com', 'https://a.b.example.com', true],
    ['https://*.example.com', 'https://example.com', false],
    ['https://*.example.com', 'https://evilexample.com', false],
    ['https://*.example.com', 'https://example.com.evil.io', false],
    ['https://*.example.com', 'http://app.example.com', false],
    ['https://*.example.com', 'https://app.example.com:8443', false],
    ['https://*.example.com:8443', 'https://app.example.com:8443', true],
    ['http://localhost:5173', 'http://localhost:5173', true],
    ['http://localhost:5173', 'http://localhost:5174', false],
    ['http://localhost', 'http://localhost:5173', false],
    ['https://app.example.com', 'https://app.example.com', true],
    ['https://app.example.com', 'https://www.app.example.com', false],
  ])('%s against %s: %s', (allowed, origin, expected) => {
    expect(originMatches(allowed, origin)).toBe(expected);
  });

  test('a list allows an origin when any entry matches it', () => {
    expect(originAllowed(['https://a.com', 'https://*.b.com'], 'https://x.b.com')).toBe(true);
    expect(originAllowed(['https://a.com', 'https://*.b.com'], 'https://b.com')).toBe(false);
  });
});
