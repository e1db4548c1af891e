import fc from 'fast-check';
import { cleanText, type TextLines } from '../../../lambda/kernel/free-text';

const single = (value: string, max = 200) => cleanText(value, { field: 'name', lines: 'single-line', max });
const multi = (value: string, max = 8192) => cleanText(value, { field: 'message', lines: 'multi-line', max });

describe('cleanText', () => {
  test('refuses text with a lone surrogate, naming the field and where it is', () => {
    expect(single('a\ud800b')).toEqual({
      ok: false,
      problem: 'name is not well-formed Unicode: it has a lone surrogate (U+D800) at character 2; send valid UTF-8 text',
    });
    expect(multi('😀\udc00')).toEqual({ ok: false, problem: expect.stringMatching(/^message .* \(U\+DC00\) at character 2;/) });
  });

  test('keeps surrogate pairs (characters outside the BMP) whole', () => {
    expect(single('𝒜da 👩‍💻')).toEqual({ ok: true, text: '𝒜da 👩‍💻' });
  });

  test('strips C0 controls but TAB, LF and CR, DEL and C1 controls', () => {
    expect(multi('a\u0000b\u0007c\u000bd\u000ce\u001bf\u007fg\u0080h\u0085i\u009fj')).toEqual({ ok: true, text: 'abcdefghij' });
  });

  test('strips bidi embedding, override and isolate controls, keeps marks and joiners', () => {
    expect(single('a\u202ab\u202bc\u202cd\u202de\u202ef\u2066g\u2067h\u2068i\u2069j')).toEqual({ ok: true, text: 'abcdefghij' });
    expect(single('\u05e9\u05dc\u05d5\u05dd\u200f 1\u200e \u200d')).toEqual({ ok: true, text: '\u05e9\u05dc\u05d5\u05dd\u200f 1\u200e \u200d' });
  });

  test('a single-line field turns each run of TAB, CR, LF, U+2028 and U+2029 into one space', () => {
    expect(single('Ada\r\nLovelace\tPhD\u2028x\u2029\n\ny')).toEqual({ ok: true, text: 'Ada Lovelace PhD x y' });
  });

  test('a multi-line field keeps TAB, CR, LF, U+2028 and U+2029 as sent', () => {
    const stack = 'TypeError: x is undefined\r\n\tat f (app.js:1:2)\n\tat g (app.js:3:4)\u2028\u2029end';
    expect(multi(stack)).toEqual({ ok: true, text: stack });
  });

  test('trims, then clips by code points, and drops a space the cut leaves at the end', () => {
    expect(single('  Ada  ')).toEqual({ ok: true, text: 'Ada' });
    expect(single('𝒜'.repeat(10), 4)).toEqual({ ok: true, text: '𝒜𝒜𝒜𝒜' });
    expect(single('abc def', 4)).toEqual({ ok: true, text: 'abc' });
    expect(single('\u0000ab', 2)).toEqual({ ok: true, text: 'ab' }); // cleaned before it is clipped
  });

  test('text that is only controls and spaces is blank', () => {
    expect(single(' \u0000\t\u202e\n ')).toEqual({ ok: true, text: '' });
  });
});

describe('cleanText (property)', () => {
  const lines = fc.constantFrom<TextLines>('single-line', 'multi-line');
  const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 60 }), fc.string({ unit: 'grapheme', maxLength: 30 }));

  test('what it keeps is well-formed, free of the stripped controls, trimmed, within the limit, and cleaned again unchanged', () => {
    fc.assert(
      fc.property(text, lines, fc.integer({ min: 1, max: 80 }), (value, shape, max) => {
        const result = cleanText(value, { field: 'f', lines: shape, max });
        if (!result.ok) throw new Error(result.problem); // generated text is well-formed
        const kept = result.text;
        expect(kept).not.toMatch(/[\p{Cs}\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u);
        if (shape === 'single-line') expect(kept).not.toMatch(/[\t\r\n\u2028\u2029]/);
        expect(kept).toBe(kept.trim());
        expect([...kept].length).toBeLessThanOrEqual(max);
        expect(cleanText(kept, { field: 'f', lines: shape, max })).toEqual(result);
      }),
    );
  });

  test('refuses every text with a lone surrogate, in either shape', () => {
    const lone = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
    fc.assert(
      fc.property(text, lone, text, lines, (before, surrogate, after, shape) => {
        // A high surrogate right before a low one would make a pair: keep them apart.
        const value = `${before}${surrogate}x${after}`;
        fc.pre(/\p{Cs}/u.test(value));
        expect(cleanText(value, { field: 'f', lines: shape, max: 500 }).ok).toBe(false);
      }),
    );
  });
});
