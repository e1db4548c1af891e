import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  GROUPING_RULE_VERSIONS,
  groupEvent,
  groupingCandidates,
  groupingKeys,
  issueIdOf,
  serverFile,
  titleOf,
} from '../../../../lambda/ingest/grouping/fingerprint';

/** The grouping rule (docs/report-issues.md) on its own: no store, no HTTP. */

const CHROMIUM = `TypeError: Cannot read properties of undefined (reading 'id')
    at renderCart (https://shop.example.com/assets/app.3f9a1c.js:12:345)
    at async loadPage (https://shop.example.com/assets/app.3f9a1c.js:40:7)
    at new Checkout (https://shop.example.com/assets/vendor-3F9A1C2B.js:1:99)
    at https://shop.example.com/assets/app.3f9a1c.js:90:1
    at Array.map (<anonymous>)`;

describe('groupEvent', () => {
  const chromium = { exception: { type: 'TypeError', value: "Cannot read properties of undefined (reading 'id')", stack: CHROMIUM } };

  test('an exception with a stack: the type and the top app frames above the async continuation (WebKit keeps none), function and normalized file', () => {
    expect(groupEvent(chromium)).toEqual({
      grouped: true,
      title: "TypeError: Cannot read properties of undefined (reading 'id')",
      fingerprint: ['error', 'TypeError', 'renderCart@/assets/app.js'],
    });
  });

  test('a redeploy (new bundle hashes, shifted lines, another query string) is the same issue', () => {
    const redeployed = CHROMIUM.replaceAll('3f9a1c', '77bb0e').replace('3F9A1C2B', 'AA00FF11').replace(':12:345', ':14:2');
    expect(groupEvent({ exception: { ...chromium.exception, stack: redeployed } })).toEqual(groupEvent(chromium));
  });

  test('another function at the top is another issue', () => {
    const other = CHROMIUM.replace('renderCart', 'renderTotals');
    expect(groupEvent({ exception: { ...chromium.exception, stack: other } })).not.toEqual(groupEvent(chromium));
  });

  test('without a stack: the type and the message with its variable parts replaced', () => {
    const a = groupEvent({ message: 'TypeError: Order 1234 not found' });
    expect(a).toEqual({ grouped: true, title: 'TypeError: Order 1234 not found', fingerprint: ['error', 'TypeError', 'Order <n> not found'] });
    expect(groupEvent({ message: 'TypeError: Order 98 not found' })).toEqual({ ...a, title: 'TypeError: Order 98 not found' });
  });

  test("the event's own fingerprint wins over the rule", () => {
    expect(groupEvent({ ...chromium, fingerprint: ['checkout', 'card'] })).toMatchObject({ grouped: true, fingerprint: ['custom', 'checkout', 'card'] });
  });

  test('cross-origin "Script error." is filtered, with or without the exception object', () => {
    expect(groupEvent({ message: 'Script error.' })).toEqual({ grouped: false, filtered: 'script-error' });
    expect(groupEvent({ exception: { value: 'Script error.' } })).toEqual({ grouped: false, filtered: 'script-error' });
  });

  test("an event whose every frame is a browser extension's is filtered; one in-app frame is enough to keep it", () => {
    const extension = 'Error: x\n    at inject (chrome-extension://abcdef/content.js:1:2)\n    at run (moz-extension://1234/bg.js:3:4)';
    expect(groupEvent({ exception: { type: 'Error', stack: extension } })).toEqual({ grouped: false, filtered: 'browser-extension' });
    expect(groupEvent({ exception: { type: 'Error', stack: 'inject@safari-web-extension://x/c.js:1:2' } })).toEqual({
      grouped: false,
      filtered: 'browser-extension',
    });
    expect(groupEvent({ exception: { type: 'Error', stack: `${extension}\n    at app (https://h.com/app.js:1:1)` } })).toMatchObject({ grouped: true });
  });

  test('a stack without in-app frames groups by the message', () => {
    expect(groupEvent({ exception: { type: 'Error', value: 'bad 12', stack: '    at Array.map (<anonymous>)' } })).toMatchObject({
      fingerprint: ['error', 'Error', 'bad <n>'],
    });
  });

  test('the event type is part of the fingerprint: a bug report is never merged into an error', () => {
    expect(groupEvent({ type: 'bug_report', message: 'broken' })).not.toEqual(groupEvent({ type: 'error', message: 'broken' }));
  });
});

describe('titleOf and issueIdOf', () => {
  test('the title is the type and the first line of the message', () => {
    expect(titleOf({ exception: { type: 'RangeError', value: 'too deep\nmore' } })).toBe('RangeError: too deep');
    expect(titleOf({ message: 'Checkout button does nothing' })).toBe('Checkout button does nothing');
  });

  test('the issue id depends on the factory and the fingerprint only', () => {
    const id = issueIdOf('fac_a', ['error', 'TypeError', 'f@/a.js']);
    expect(id).toMatch(/^iss_[0-9a-f]{20}$/);
    expect(issueIdOf('fac_a', ['error', 'TypeError', 'f@/a.js'])).toBe(id);
    expect(issueIdOf('fac_b', ['error', 'TypeError', 'f@/a.js'])).not.toBe(id);
    expect(issueIdOf('fac_a', ['error', 'TypeError', 'g@/a.js'])).not.toBe(id);
  });
});

describe("rule version 3: the app's own frames", () => {
  const resolvedAt = (source: string, contextLine: string, line: number) => ({ source, line, column: 1, contextLine });
  const stack = `TypeError: x\n    at cartItems (https://h/assets/app-1a2b3c4d.js:2:10)\n    at c (https://h/assets/app-1a2b3c4d.js:2:40)\n    at sentryWrapped (https://h/assets/app-1a2b3c4d.js:2:90)`;
  const frames = [
    {
      fn: 'cartItems',
      file: 'https://h/assets/app-1a2b3c4d.js',
      line: 2,
      column: 10,
      original: resolvedAt('../../src/cart.js', 'return session.cart.items;', 5),
    },
    { fn: 'c', file: 'https://h/assets/app-1a2b3c4d.js', line: 2, column: 40, original: resolvedAt('../../src/cart.js', 'return cartItems().length;', 9) },
    {
      fn: 'sentryWrapped',
      file: 'https://h/assets/app-1a2b3c4d.js',
      line: 2,
      column: 90,
      original: resolvedAt('../../node_modules/@sentry/browser/build/npm/esm/helpers.js', 'return fn.apply(this, wrappedArguments);', 70),
    },
  ];
  const base = { type: 'error', exception: { type: 'TypeError', value: 'x', stack } };

  test("a Sentry wrapper resolved into node_modules never enters the fingerprint: the own SDK's stack without it groups alike", () => {
    const [withWrapper] = groupingCandidates({ ...base, frames });
    const [without] = groupingCandidates({
      ...base,
      exception: { ...base.exception, stack: stack.split('\n').slice(0, 3).join('\n') },
      frames: frames.slice(0, 2),
    });
    expect(withWrapper).toEqual(['resolved:2', 'error', 'TypeError', 'return session.cart.items;@src/cart.js', 'return cartItems().length;@src/cart.js']);
    expect(without).toEqual(withWrapper);
  });

  test('the older rules stay candidates after the current one: an issue they opened keeps its id', () => {
    const { current, legacy } = groupingKeys({ ...base, frames });
    expect(current[0]?.[0]).toBe('resolved:2');
    expect(legacy[0]).toContain('return fn.apply(this, wrappedArguments);@node_modules/@sentry/browser/build/npm/esm/helpers.js');
  });

  test('with no frame of the app, all frames group (never the message alone while there is a stack)', () => {
    const python = (value: string) =>
      groupEvent({
        type: 'error',
        exception: { type: 'ValueError', value },
        sdkFrames: [
          { function: 'parse', module: 'orders', file: '/srv/releases/123/orders.py', inApp: false },
          { function: 'dispatch', module: 'flask.app', file: '/usr/lib/python3/dist-packages/flask/app.py', inApp: false },
        ],
      });
    expect(python('order 1 is malformed')).toMatchObject({ fingerprint: ['error', 'ValueError', 'parse@orders', 'dispatch@flask.app'] });
    expect(python('order 2 is malformed')).toEqual({ ...python('order 1 is malformed'), title: 'ValueError: order 2 is malformed' });
  });

  test('a server file without a module: two deploy paths of one file are one part', () => {
    const on = (root: string) =>
      groupEvent({
        type: 'error',
        exception: { type: 'RuntimeError', value: 'x' },
        sdkFrames: [{ function: 'charge', file: `${root}/billing/charge.rb`, inApp: true }],
      });
    expect(on('/srv/releases/123')).toEqual(on('/srv/releases/124'));
    expect(on('/srv/releases/123')).toMatchObject({ fingerprint: ['error', 'RuntimeError', 'charge@billing/charge.rb'] });
    expect(serverFile('/srv/releases/20261205123000/app.py')).toBe('releases/app.py');
  });

  test('a map that marks a source ignored (ignoreList) keeps it out, as a package is', () => {
    const ignored = frames.map((frame, index) => (index === 1 ? { ...frame, original: { ...frame.original, ignored: true as const } } : frame));
    expect(groupingCandidates({ ...base, frames: ignored })[0]).toEqual(['resolved:2', 'error', 'TypeError', 'return session.cart.items;@src/cart.js']);
  });
});

test('the grouping versions the docs name are the ones the code hashes by, the current one first', () => {
  const docs = readFileSync(join(__dirname, '..', '..', '..', '..', 'docs', 'report-issues.md'), 'utf8');
  const section = docs.slice(docs.indexOf('### Grouping versions'), docs.indexOf('### Issue ids'));
  const named = [...section.matchAll(/\(version (\d+)\)|\((\d+): |; (\d+): /g)].map((match) => Number(match[1] ?? match[2] ?? match[3]));
  expect(named).toEqual([...GROUPING_RULE_VERSIONS]);
});
