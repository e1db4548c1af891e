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
});
