import { debugIdsOf } from '../../../browser-sdk/src/debug-ids';

/** The SDK's debug ids (docs/source-maps.md#debug-ids-in-the-browser): read from every injector's registry. */

const OWN = '3d11fdbb-678d-44ec-a3b6-b8f35ffebdb2';
const SENTRY = '8a5c4d1e-2f3b-4c6d-9e8f-0a1b2c3d4e5f';
const recorded = (url: string) => `Error\n    at ${url}:1:120\n    at ${url}:1:300`;
const stack = 'TypeError: x\n    at o (https://h/assets/app-1.js:2:54)\n    at n (https://cdn.h/vendor-2.js:1:9)';

test("a script injected by sentry-cli (Sentry's registry only) is found as one injected by sourcemaps inject", () => {
  expect(debugIdsOf(stack, [undefined, { [recorded('https://cdn.h/vendor-2.js')]: SENTRY }])).toEqual({ 'https://cdn.h/vendor-2.js': SENTRY });
});

test("both registries are read; a script in both keeps the own registry's id", () => {
  const own = { [recorded('https://h/assets/app-1.js')]: OWN };
  const sentry = { [recorded('https://h/assets/app-1.js')]: SENTRY, [recorded('https://cdn.h/vendor-2.js')]: SENTRY };
  expect(debugIdsOf(stack, [own, sentry])).toEqual({ 'https://h/assets/app-1.js': OWN, 'https://cdn.h/vendor-2.js': SENTRY });
});

test('no registry, no stack, or no script of the stack registered: no ids', () => {
  expect(debugIdsOf(stack, [undefined, undefined])).toBeUndefined();
  expect(debugIdsOf(undefined, [{ [recorded('https://h/assets/app-1.js')]: OWN }])).toBeUndefined();
  expect(debugIdsOf(stack, [{ [recorded('https://h/other.js')]: OWN }])).toBeUndefined();
});

test('the default reads the globals a page has', () => {
  const global = globalThis as { _sentryDebugIds?: Record<string, string> };
  global._sentryDebugIds = { [recorded('https://h/assets/app-1.js')]: SENTRY };
  try {
    expect(debugIdsOf(stack)).toEqual({ 'https://h/assets/app-1.js': SENTRY });
  } finally {
    delete global._sentryDebugIds;
  }
});

test("Firefox's and Safari's stacks too, every script of the stack named", () => {
  const firefox = 'o@https://h/assets/app-1.js:2:54\nn@https://cdn.h/vendor-2.js:1:9';
  const own = { [recorded('https://h/assets/app-1.js')]: OWN, [recorded('https://cdn.h/vendor-2.js')]: SENTRY };
  expect(Object.keys(debugIdsOf(firefox, [own]) ?? {})).toEqual(['https://h/assets/app-1.js', 'https://cdn.h/vendor-2.js']);
});
