import { browserFramePart, comparableFrames, isGlueFrame, jsFunctionName, withoutRepeats } from '../../../../lambda/ingest/grouping/frame-names';
import { parseStackLocations } from '../../../../lambda/ingest/grouping/stack-frames';
import { groupEvent } from '../../../../lambda/ingest/grouping/fingerprint';
import stacks from './engine-stacks.json';

/**
 * The table of real stacks: the same errors thrown in Chromium, Firefox ESR and WebKitGTK by one script
 * (tools/browsers/capture-stacks.ts wrote it). Each case's frames in the app's script must read alike in every
 * engine once named as the grouping names them; the one known exception (WebKit names no function assigned to a
 * property) is named so below.
 */
type Engine = 'chromium' | 'firefox' | 'webkit';
const table = stacks as Record<string, Partial<Record<Engine, string>>>;
const APP = 'https://shop.example.com/assets/';

/** The app's frames of a stack as the fingerprint names them, top first, at most five. */
const appParts = (stack: string): string[] =>
  withoutRepeats(
    comparableFrames(parseStackLocations(stack))
      .filter((frame) => frame.file.startsWith(APP))
      .map(browserFramePart),
  ).slice(0, 5);

const WEBKIT_UNNAMED = new Set(['assigned anonymous function']);

describe('the table of real stacks', () => {
  test('holds every case in all three engines', () => {
    expect(Object.keys(table).length).toBeGreaterThanOrEqual(12);
    for (const [kind, row] of Object.entries(table)) expect([kind, Object.keys(row).sort()]).toEqual([kind, ['chromium', 'firefox', 'webkit']]);
  });

  test.each(Object.keys(table))('%s: Chromium and Firefox name every app frame alike', (kind) => {
    const row = table[kind] as Record<Engine, string>;
    expect(appParts(row.firefox)).toEqual(appParts(row.chromium));
    expect(appParts(row.chromium).length).toBeGreaterThanOrEqual(2);
  });

  test.each(Object.keys(table).filter((kind) => !WEBKIT_UNNAMED.has(kind)))('%s: WebKit names every app frame as Chromium does', (kind) => {
    const row = table[kind] as Record<Engine, string>;
    expect(appParts(row.webkit)).toEqual(appParts(row.chromium));
  });

  test('a function assigned to a property is unnamed in WebKit alone: its other frames still agree', () => {
    const row = table['assigned anonymous function'] as Record<Engine, string>;
    const [webkit, chromium] = [appParts(row.webkit), appParts(row.chromium)];
    expect(chromium[1]).toBe('CartTotal@/assets/app.js');
    expect(webkit[1]).toBe('?@/assets/app.js');
    expect(webkit.filter((_part, index) => index !== 1)).toEqual(chromium.filter((_part, index) => index !== 1));
  });

  test('the same error thrown in each engine is one fingerprint (Chromium and Firefox)', () => {
    for (const row of Object.values(table) as Record<Engine, string>[]) {
      const of = (stack: string) => groupEvent({ type: 'error', exception: { type: 'TypeError', value: 'x', stack } });
      expect(of(row.firefox)).toEqual(of(row.chromium));
    }
  });
});

describe('jsFunctionName', () => {
  test.each([
    ['x.CartTotal [as constructor]', 'CartTotal'],
    ['Object.CartTotal2 [as sum]', 'CartTotal2'],
    ['new Cart', 'Cart'],
    ['Cart.total', 'total'],
    ['get size', 'size'],
    ['set size', 'size'],
    ['async checkout', 'checkout'],
    ['async*checkout', 'checkout'],
    ['setTimeout handler*checkout', 'checkout'],
    ['outer/<', ''],
    ['window.report/</<', ''],
    ['outer/inner', 'inner'],
    ['Object.<anonymous>', ''],
    ['<anonymous>', ''],
    ['global code', ''],
    ['eval code', ''],
    ['renderCart', 'renderCart'],
  ])('%s → %s', (raw, name) => {
    expect(jsFunctionName(raw)).toBe(name);
  });
});

test('withoutRepeats counts a part repeated next to itself once, not one repeated further down', () => {
  expect(withoutRepeats(['a', 'b', 'b', 'c', 'b'])).toEqual(['a', 'b', 'c', 'b']);
});

test('a hostile name costs linear time: 200,000 characters of marks and brackets are read at once', () => {
  const started = process.cpuUsage();
  for (const hostile of ['new '.repeat(50_000), '[as '.repeat(50_000), `${' '.repeat(200_000)}x`, 'a*'.repeat(100_000)]) jsFunctionName(hostile);
  const { user } = process.cpuUsage(started);
  // Quadratic work on these would take minutes; linear takes milliseconds. A CPU-time bound, not a wall-clock one.
  expect(user / 1000).toBeLessThan(2000);
});

describe('comparableFrames', () => {
  test('drops eval code (V8 and Firefox), engine frames and the async continuation', () => {
    const frames = parseStackLocations(
      [
        'TypeError: x',
        '    at thrower (https://h/app.js:1:1)',
        '    at eval (eval at run (https://h/app.js:2:2), <anonymous>:1:1)',
        '    at Array.map (<anonymous>)',
        '    at load (https://h/app.js:3:3)',
        '    at async checkout (https://h/app.js:4:4)',
        '    at main (https://h/app.js:5:5)',
      ].join('\n'),
    );
    expect(comparableFrames(frames).map((frame) => frame.fn)).toEqual(['thrower', 'load']);
  });

  test("Firefox's continuation after a timer (`setTimeout handler*`) is dropped with what follows", () => {
    const frames = parseStackLocations(
      'cartItems@https://h/app.js:1:1\nonCheckout@https://h/app.js:2:2\nsetTimeout handler*checkout@https://h/app.js:3:3\n@https://h/app.js:4:4',
    );
    expect(comparableFrames(frames).map((frame) => frame.fn)).toEqual(['cartItems', 'onCheckout']);
  });

  test("Firefox's eval and new Function locations are glue; a script URL is not", () => {
    expect(isGlueFrame({ file: 'https://h/app.js line 20 > eval' })).toBe(true);
    expect(isGlueFrame({ file: 'https://h/app.js line 20 > Function' })).toBe(true);
    expect(isGlueFrame({ file: '[native code]' })).toBe(true);
    expect(isGlueFrame({ file: 'https://h/app.js' })).toBe(false);
  });
});
