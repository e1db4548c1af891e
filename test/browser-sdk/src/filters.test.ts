import { clip, describeError, describeMessage, stringify } from '../../../browser-sdk/src/describe';
import { ALWAYS_IGNORED, isExtensionUrl, matches, topFrameUrl } from '../../../browser-sdk/src/filters';

describe('what the browser SDK reads from an error', () => {
  test("the top frame's script URL, from Chromium's and from Firefox's or Safari's stacks", () => {
    expect(topFrameUrl('TypeError: x is undefined\n    at f (https://app.example.com/app.js:1:234)\n    at https://cdn.example.com/lib.js:9:9')).toBe(
      'https://app.example.com/app.js',
    );
    expect(topFrameUrl('TypeError: x\n    at https://app.example.com/app.js:1:2')).toBe('https://app.example.com/app.js');
    expect(topFrameUrl('f@moz-extension://abc/content.js:1:2\n@https://app.example.com/app.js:3:4')).toBe('moz-extension://abc/content.js');
    expect(topFrameUrl('Error: no frames')).toBeUndefined();
    expect(topFrameUrl(undefined)).toBeUndefined();
  });

  test("browser extensions' scripts are recognised by their scheme", () => {
    for (const url of ['chrome-extension://abc/x.js', 'moz-extension://abc/x.js', 'safari-web-extension://abc/x.js', 'safari-extension://abc/x.js'])
      expect(isExtensionUrl(url)).toBe(true);
    expect(isExtensionUrl('https://extension.example.com/x.js')).toBe(false);
  });

  test('"Script error." and ResizeObserver loop notices are always ignored; patterns match by substring or RegExp', () => {
    expect(matches('Script error.', ALWAYS_IGNORED)).toBe(true);
    expect(matches('ResizeObserver loop completed with undelivered notifications.', ALWAYS_IGNORED)).toBe(true);
    expect(matches('TypeError: Script error. in my code', ALWAYS_IGNORED)).toBe(false);
    expect(matches('Error: flaky widget', ['flaky', /^nope/])).toBe(true);
    expect(matches('Error: flaky widget', [/^Error: f/])).toBe(true);
    expect(matches('Error: stable', ['flaky'])).toBe(false);
  });

  test('an Error becomes "Type: message" with its stack as written; other values become text', () => {
    const error = new RangeError('too far');
    expect(describeError(error)).toEqual({ message: 'RangeError: too far', exception: { type: 'RangeError', value: 'too far', stack: error.stack } });
    expect(describeError({ code: 42 }, 'Unhandled promise rejection: ')).toEqual({
      message: 'Unhandled promise rejection: {"code":42}',
      exception: { type: 'UnhandledRejection', value: '{"code":42}' },
    });
    expect(describeError('plain text')).toEqual({ message: 'plain text', exception: { type: 'Error', value: 'plain text' } });
    expect(describeMessage('hello')).toEqual({ message: 'hello' });
    expect([stringify(undefined), stringify(10n), stringify({})]).toEqual(['undefined', '10', '[object Object]']);
  });

  test('clipping never leaves half of a surrogate pair (the API refuses lone surrogates)', () => {
    expect(clip('ab😀', 3)).toBe('ab');
    expect(clip('abc', 3)).toBe('abc');
    expect(clip('x'.repeat(20_000), 16_384)).toHaveLength(16_384);
  });
});
