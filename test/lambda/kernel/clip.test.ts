import { charCount, clip } from '../../../lambda/kernel/clip';

describe('clip', () => {
  test('keeps short values as they are', () => {
    expect(clip('abc', 3)).toBe('abc');
  });

  test('cuts to the limit', () => {
    expect(clip('abcdef', 4)).toBe('abcd');
  });

  test('counts code points and never splits a surrogate pair', () => {
    const value = '𝒜'.repeat(5);
    expect(clip(value, 3)).toBe('𝒜𝒜𝒜');
    expect(charCount(clip(value, 3))).toBe(3);
  });
});
