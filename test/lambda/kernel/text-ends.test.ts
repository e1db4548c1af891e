import { trimEndOf, withoutQueryOrFragment } from '../../../lambda/kernel/text-ends';

describe('trimEndOf', () => {
  test('removes every trailing character of the set, and only those at the end', () => {
    expect(trimEndOf('https://h/base///', '/')).toBe('https://h/base');
    expect(trimEndOf('a/b', '/')).toBe('a/b');
    expect(trimEndOf('fn/<</', '/<')).toBe('fn');
    expect(trimEndOf('///', '/')).toBe('');
    expect(trimEndOf('', '/')).toBe('');
  });

  test('says what the pattern /[…]+$/ said, on every mix of the set and other characters', () => {
    for (const text of ['x/', '/x', '/<x</', '<<', 'a/b//<', '']) expect(trimEndOf(text, '/<')).toBe(text.replace(/[/<]+$/, ''));
  });

  test('reads a long run not at the end once (the pattern took quadratic time on it)', () => {
    const text = `${'/'.repeat(200_000)}x`;
    expect(trimEndOf(text, '/')).toBe(text);
  });
});

describe('withoutQueryOrFragment', () => {
  test('cuts at the first ? or #', () => {
    expect(withoutQueryOrFragment('https://h/app.js?v=1#x')).toBe('https://h/app.js');
    expect(withoutQueryOrFragment('/app.js#frag?q')).toBe('/app.js');
    expect(withoutQueryOrFragment('/app.js')).toBe('/app.js');
    expect(withoutQueryOrFragment('?')).toBe('');
  });

  test('says what /[?#].*$/ said, but on a line break too (`.` stopped there, and the pattern failed)', () => {
    for (const text of ['a?b', 'a#b', 'ab', '??', '#']) expect(withoutQueryOrFragment(text)).toBe(text.replace(/[?#].*$/, ''));
  });
});
