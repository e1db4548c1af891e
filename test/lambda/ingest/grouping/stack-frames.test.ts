import { isExtensionFrame, isInAppFrame, normalizeFile, parseStackFrames, parseStackLocations } from '../../../../lambda/ingest/grouping/stack-frames';

const CHROMIUM = `TypeError: Cannot read properties of undefined (reading 'id')
    at renderCart (https://shop.example.com/assets/app.3f9a1c.js:12:345)
    at async loadPage (https://shop.example.com/assets/app.3f9a1c.js:40:7)
    at new Checkout (https://shop.example.com/assets/vendor-3F9A1C2B.js:1:99)
    at https://shop.example.com/assets/app.3f9a1c.js:90:1
    at Array.map (<anonymous>)`;
const FIREFOX = `renderCart@https://shop.example.com/assets/app.3f9a1c.js:12:345
loadPage/<@https://shop.example.com/assets/app.3f9a1c.js:40:7
@https://shop.example.com/assets/app.3f9a1c.js:90:1`;
const SAFARI = `renderCart@https://shop.example.com/assets/app.3f9a1c.js:12:345
loadPage@https://shop.example.com/assets/app.3f9a1c.js:40:7
map@[native code]
global code@https://shop.example.com/assets/app.3f9a1c.js:90:1`;

describe('parseStackFrames', () => {
  test('reads Chromium frames: named, async, new, anonymous and native, top first, without line and column', () => {
    expect(parseStackFrames(CHROMIUM)).toEqual([
      { fn: 'renderCart', file: 'https://shop.example.com/assets/app.3f9a1c.js' },
      { fn: 'loadPage', file: 'https://shop.example.com/assets/app.3f9a1c.js' },
      { fn: 'Checkout', file: 'https://shop.example.com/assets/vendor-3F9A1C2B.js' },
      { fn: '', file: 'https://shop.example.com/assets/app.3f9a1c.js' },
      { fn: 'Array.map', file: '<anonymous>' },
    ]);
  });

  test('reads Firefox frames, nested-function markers dropped', () => {
    expect(parseStackFrames(FIREFOX).map((frame) => frame.fn)).toEqual(['renderCart', 'loadPage', '']);
  });

  test('reads Safari frames, "global code" as anonymous and native code kept as such', () => {
    expect(parseStackFrames(SAFARI)).toEqual([
      { fn: 'renderCart', file: 'https://shop.example.com/assets/app.3f9a1c.js' },
      { fn: 'loadPage', file: 'https://shop.example.com/assets/app.3f9a1c.js' },
      { fn: 'map', file: '[native code]' },
      { fn: '', file: 'https://shop.example.com/assets/app.3f9a1c.js' },
    ]);
  });

  test('an eval frame is the script that called eval', () => {
    expect(parseStackFrames('    at run (eval at boot (https://h.com/app.js:3:9), <anonymous>:1:5)')).toEqual([{ fn: 'run', file: 'https://h.com/app.js' }]);
  });

  test('text that is no frame gives no frame', () => {
    expect(parseStackFrames('TypeError: x\nsomething else\n')).toEqual([]);
  });
});

describe('normalizeFile', () => {
  test.each([
    ['https://h.com/assets/app.3f9a1c.js', '/assets/app.js'],
    ['https://cdn.h.com/assets/app-3F9A1C2B.js?v=12#x', '/assets/app.js'],
    ['https://h.com/assets/index-BxK3aZ9q.js', '/assets/index.js'],
    ['https://h.com/static/js/main.3f9a1c2b.chunk.js', '/static/js/main.chunk.js'],
    ['https://h.com/_next/static/3f9a1c2b7e/pages/cart.js', '/_next/static/pages/cart.js'],
    ['https://h.com/js/jquery-3.6.0.min.js', '/js/jquery-3.6.0.min.js'],
    ['https://h.com/js/vendor-react.js', '/js/vendor-react.js'],
    ['https://h.com/js/app.deadbeef.js', '/js/app.js'],
    ['https://h.com/js/app.facade.js', '/js/app.facade.js'],
  ])('%s → %s', (file, normalized) => {
    expect(normalizeFile(file)).toBe(normalized);
  });

  test('answers alike when asked again, past the answers it keeps, and for a file too long to keep', () => {
    const files = Array.from({ length: 600 }, (_, i) => `https://h.com/assets/chunk-${i}.3f9a1c2b.js`);
    const first = files.map(normalizeFile);
    expect(first[7]).toBe('/assets/chunk-7.js');
    expect(files.map(normalizeFile)).toEqual(first);
    const long = `https://h.com/${'a/'.repeat(400)}app.3f9a1c.js`;
    expect(normalizeFile(long)).toBe(`/${'a/'.repeat(400)}app.js`);
    expect(normalizeFile(long)).toBe(normalizeFile(long));
  });
});

describe('parseStackLocations', () => {
  test("keeps each frame's line and column, 1-based, as the browser wrote them", () => {
    expect(parseStackLocations('    at f (https://h.com/app.js:12:345)\ng@https://h.com/b.js:7:8')).toEqual([
      { fn: 'f', file: 'https://h.com/app.js', line: 12, column: 345 },
      { fn: 'g', file: 'https://h.com/b.js', line: 7, column: 8 },
    ]);
  });
});

describe('whose frame it is', () => {
  test("the site's own scripts are in app; the engine's, eval glue and extensions' are not", () => {
    for (const file of ['https://h.com/app.js', 'http://localhost:5173/src/a.ts', 'webpack://app/src/a.js', 'blob:https://h.com/1', 'file:///app.js'])
      expect(isInAppFrame({ fn: 'f', file })).toBe(true);
    for (const file of ['native', '<anonymous>', '[native code]', 'chrome-extension://abc/c.js']) expect(isInAppFrame({ fn: 'f', file })).toBe(false);
  });

  test("an extension's frame is told by its scheme", () => {
    expect(isExtensionFrame({ fn: '', file: 'moz-extension://abc/c.js' })).toBe(true);
    expect(isExtensionFrame({ fn: '', file: 'https://extension.example.com/c.js' })).toBe(false);
  });
});
