import { generateKey, hashSecret, readCredential } from '../../../lambda/kernel/api-key';

describe('generateKey', () => {
  test('makes a dfsk_ secret of 256 random bits, its hash, a key id and a hint', () => {
    const key = generateKey('secret');
    expect(key.secret).toMatch(/^dfsk_[A-Za-z0-9_-]{43}$/);
    expect(key.keyHash).toBe(hashSecret(key.secret));
    expect(key.keyHash).not.toContain(key.secret.slice(5));
    expect(key.keyId).toMatch(/^key_[0-9a-f]{16}$/);
    expect(key.hint).toBe(key.secret.slice(-4));
  });

  test('makes dfpk_ publishable keys', () => {
    expect(generateKey('publishable').secret).toMatch(/^dfpk_/);
  });

  test('never repeats', () => {
    expect(new Set(Array.from({ length: 100 }, () => generateKey('secret').secret)).size).toBe(100);
  });
});

describe('readCredential', () => {
  const secret = `dfsk_${'x'.repeat(43)}`;
  test.each([
    [undefined, { kind: 'missing' }],
    ['  ', { kind: 'missing' }],
    [`Bearer ${secret}`, { kind: 'secret', secret }],
    [`bearer   ${secret} `, { kind: 'secret', secret }],
    [`Basic ${secret}`, { kind: 'not-bearer' }],
    [secret, { kind: 'not-bearer' }],
    [`Bearer dfpk_${'x'.repeat(43)}`, { kind: 'publishable' }],
    ['Bearer dfsk_tooshort', { kind: 'malformed' }],
    ['Bearer sk_live_abc', { kind: 'malformed' }],
  ])('%j → %j', (header, expected) => {
    expect(readCredential(header)).toEqual(expected);
  });
});
