import fc from 'fast-check';
import { charCount, clip } from '../../../lambda/kernel/clip';

/** Well-formed text of any script, emoji included (surrogate pairs). */
const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 400 }), fc.string({ unit: 'grapheme', maxLength: 200 }));
const limit = fc.nat({ max: 300 });

describe('clip (property)', () => {
  test('never exceeds the limit, counted in Unicode characters', () => {
    fc.assert(fc.property(text, limit, (value, max) => expect(charCount(clip(value, max))).toBeLessThanOrEqual(max)));
  });

  test('never changes a value within the limit', () => {
    fc.assert(
      fc.property(text, limit, (value, max) => {
        fc.pre(charCount(value) <= max);
        expect(clip(value, max)).toBe(value);
      }),
    );
  });

  test('cuts a longer value to exactly the limit, keeping its beginning', () => {
    fc.assert(
      fc.property(text, limit, (value, max) => {
        const clipped = clip(value, max);
        expect(value.startsWith(clipped)).toBe(true);
        if (charCount(value) > max) expect(charCount(clipped)).toBe(max);
      }),
    );
  });

  test('never splits a surrogate pair: well-formed text stays well-formed', () => {
    // In a /u regexp \p{Cs} matches only a surrogate left alone.
    fc.assert(fc.property(text, limit, (value, max) => expect(clip(value, max)).not.toMatch(/\p{Cs}/u)));
  });

  test('is idempotent', () => {
    fc.assert(fc.property(text, limit, (value, max) => expect(clip(clip(value, max), max)).toBe(clip(value, max))));
  });

  test('charCount counts code points', () => {
    fc.assert(fc.property(text, (value) => expect(charCount(value)).toBe([...value].length)));
  });
});
