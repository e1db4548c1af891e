import { parseStackFrames, parseStackLocations } from '../../lambda/ingest/grouping/stack-frames';
import { groupEvent } from '../../lambda/ingest/grouping/fingerprint';
import { framesForDisplay } from '../../lambda/ingest/sourcemaps/display-frames';
import { MAX_DEBUG_IDS } from '../../lambda/ingest/limits';
import { readSentryEvent } from '../../lambda/ingest/sentry/sentry-event';

/** Sentry events read into the own shape and grouped with the own SDK's (lambda/ingest/sentry/, the grouping of structured frames): no I/O. Each piece of the protocol has its own test under test/lambda/ingest/sentry/. */

const serverEvent = (frames: Record<string, unknown>[], value = 'order 1 is malformed') =>
  readSentryEvent({ event_id: 'a'.repeat(32), exception: { values: [{ type: 'ValueError', value, stacktrace: { frames } }] } });

test('one Python bug on two hosts, paths, versions and lines groups as one issue: in-app module and function only', () => {
  const onHost = (root: string, line: number, value: string) =>
    serverEvent(
      [
        { function: 'run', module: 'threading', abs_path: `/usr/lib/python3.${line}/threading.py`, lineno: line, in_app: false },
        { function: 'handle', module: 'orders.views', abs_path: `${root}/orders/views.py`, lineno: line + 1, in_app: true },
        { function: 'parse_order', module: 'orders.parse', abs_path: `${root}/orders/parse.py`, lineno: line + 2, in_app: true },
      ],
      value,
    );
  const a = onHost('/srv/app-1.4.2', 10, 'order 17 is malformed');
  const b = onHost('/opt/releases/1.5.0', 99, 'order 230 is malformed');
  if (!a.ok || !b.ok) throw new Error('unreadable');
  const [groupA, groupB] = [groupEvent(a.value), groupEvent(b.value)];
  expect(groupA.grouped && groupA.fingerprint).toEqual(groupB.grouped && groupB.fingerprint);
  expect(groupA.grouped && groupA.fingerprint).toEqual(['error', 'ValueError', 'parse_order@orders.parse', 'handle@orders.views']);
});

test('a frame the SDK did not mark in_app never decides the issue, whatever its file', () => {
  const withLibrary = (module: string) =>
    serverEvent([
      { function: 'request', module, abs_path: `/venv/${module}.py`, lineno: 1, in_app: false },
      { function: 'handle', module: 'orders.views', abs_path: '/srv/orders/views.py', lineno: 2, in_app: true },
    ]);
  const [a, b] = [withLibrary('requests.api'), withLibrary('httpx.client')];
  if (!a.ok || !b.ok) throw new Error('unreadable');
  expect(groupEvent(a.value)).toEqual(groupEvent(b.value));
});

test("a browser error groups alike from the Sentry browser SDK and from the own SDK's stack text", () => {
  const sentry = readSentryEvent({
    event_id: 'b'.repeat(32),
    exception: {
      values: [
        {
          type: 'TypeError',
          value: 'x is undefined',
          stacktrace: {
            frames: [
              { function: 'main', filename: 'https://app.example.com/assets/app.3f9a1c.js', lineno: 30, colno: 1, in_app: true },
              { function: 'render', filename: 'https://app.example.com/assets/app.3f9a1c.js', lineno: 10, colno: 20, in_app: true },
            ],
          },
        },
      ],
    },
  });
  if (!sentry.ok) throw new Error('unreadable');
  const own = {
    type: 'error' as const,
    exception: {
      type: 'TypeError',
      value: 'x is undefined',
      stack:
        'TypeError: x is undefined\n    at render (https://cdn.example.com/assets/app.77aa00bb.js:11:2)\n    at main (https://cdn.example.com/assets/app.77aa00bb.js:31:1)',
    },
  };
  const [fromSentry, fromOwn] = [groupEvent(sentry.value), groupEvent(own)];
  expect(fromSentry.grouped && fromSentry.fingerprint).toEqual(fromOwn.grouped && fromOwn.fingerprint);
});

test('a Firefox error groups alike from the Sentry browser SDK (nested functions named as Firefox writes them, "report/</<") and from the own SDK\'s Firefox stack', () => {
  // Frames as @sentry/browser 11 sends them from Firefox ESR 153 (test/browser/sentry-source-maps.test.ts saw them), oldest first.
  const sentry = readSentryEvent({
    event_id: 'd'.repeat(32),
    exception: {
      values: [
        {
          type: 'TypeError',
          value: 'r.cart is undefined',
          stacktrace: {
            frames: [
              { function: 'window.report/</<', filename: 'https://shop.example.com/shop', lineno: 14, colno: 41, in_app: true },
              { function: 'checkout', filename: 'https://shop.example.com/shop', lineno: 7, colno: 35, in_app: true },
              { function: 'i', filename: 'https://shop.example.com/assets/app.js', lineno: 2, colno: 40, in_app: true },
            ],
          },
        },
      ],
    },
  });
  if (!sentry.ok) throw new Error('unreadable');
  const stack =
    'i@https://shop.example.com/assets/app.js:2:40\ncheckout@https://shop.example.com/shop:7:35\nwindow.report/</<@https://shop.example.com/shop:14:41';
  const own = { type: 'error' as const, exception: { type: 'TypeError', value: 'r.cart is undefined', stack } };
  const [fromSentry, fromOwn] = [groupEvent(sentry.value), groupEvent(own)];
  expect(fromSentry.grouped && fromSentry.fingerprint).toEqual(fromOwn.grouped && fromOwn.fingerprint);
  // Rule version 2 reads the stack text the Sentry reader writes: the same frames as Firefox's own.
  expect(parseStackFrames(sentry.value.exception?.stack ?? '')).toEqual(parseStackFrames(stack));
});

test('secrets in frames are scrubbed and counted with the rest of the event', () => {
  const reading = serverEvent([{ function: 'pay', module: 'billing', context_line: 'charge("4111 1111 1111 1111")', lineno: 3, in_app: true }]);
  if (!reading.ok) throw new Error('unreadable');
  expect(reading.value.sdkFrames?.[0]?.contextLine).toBe('charge("[Filtered:card]")');
  expect(reading.value.scrubbed).toEqual({ card: 1 });
});

test("a Sentry browser event's stack text gives the source-map resolver the same frames as the own SDK's stack, so both resolve and group alike (rule version 2)", () => {
  const sentry = readSentryEvent({
    event_id: 'c'.repeat(32),
    exception: {
      values: [
        {
          type: 'TypeError',
          value: 'x is undefined',
          stacktrace: {
            frames: [
              { function: 'main', abs_path: 'https://app.example.com/assets/app.js', lineno: 31, colno: 1, in_app: true },
              { function: 'r', abs_path: 'https://app.example.com/assets/app.js', lineno: 11, colno: 2, in_app: true },
            ],
          },
        },
      ],
    },
  });
  if (!sentry.ok) throw new Error('unreadable');
  const own = 'TypeError: x is undefined\n    at r (https://app.example.com/assets/app.js:11:2)\n    at main (https://app.example.com/assets/app.js:31:1)';
  expect(parseStackLocations(sentry.value.exception?.stack ?? '')).toEqual(parseStackLocations(own));
});

test('Sentry debug ids reach the event through the own reader: the first 20, with dashes and lowercase, a malformed one skipped rather than the event refused', () => {
  const hex = (i: number) => i.toString(16).padStart(32, 'A');
  const images = [
    { type: 'sourcemap', code_file: 'https://app.example.com/bad.js', debug_id: 'not-a-debug-id' },
    ...Array.from({ length: 25 }, (_, i) => ({ type: 'sourcemap', code_file: `https://app.example.com/chunk-${i}.js`, debug_id: hex(i) })),
  ];
  const reading = readSentryEvent({ event_id: 'd'.repeat(32), message: 'boom', debug_meta: { images } });
  if (!reading.ok) throw new Error(reading.problems.join('; '));
  const ids = reading.value.debugIds ?? {};
  expect(Object.keys(ids)).toHaveLength(MAX_DEBUG_IDS);
  expect(ids['https://app.example.com/chunk-0.js']).toBe('aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaa0');
  expect(ids['https://app.example.com/bad.js']).toBeUndefined();
});

test("a Python frame keeps module, file, line and the lines around it (three each side, frames that may be the app's only), shown as sent with no source-map reason", async () => {
  const reading = serverEvent([
    {
      function: 'dispatch_request',
      module: 'flask.app',
      abs_path: '/usr/lib/python3/dist-packages/flask/app.py',
      lineno: 880,
      context_line: '        return self.view_functions[rule.endpoint](**view_args)',
      pre_context: ['a', 'b'],
      post_context: ['c'],
      in_app: false,
    },
    {
      function: 'parse_order',
      module: 'orders',
      abs_path: '/srv/releases/124/orders.py',
      lineno: 12,
      context_line: '    return int(raw["id"])',
      pre_context: ['', 'def parse_order(raw):', '    # the id is a number', '    token = "sk_live_0123456789abcdef01234567"'],
      post_context: ['', '', 'def other():', '    pass'],
      in_app: true,
    },
  ]);
  if (!reading.ok) throw new Error('unreadable');
  const [top, library] = reading.value.sdkFrames ?? [];
  expect(top).toMatchObject({ function: 'parse_order', module: 'orders', file: '/srv/releases/124/orders.py', line: 12, inApp: true });
  expect(top?.pre).toHaveLength(3);
  expect(top?.pre?.[2]).not.toContain('sk_live_0123456789abcdef01234567');
  expect(top?.post).toEqual(['', '', 'def other():']);
  expect(library?.pre).toBeUndefined();
  const shown = await framesForDisplay({ factoryId: 'fac_rules', ...reading.value });
  expect(shown?.[0]).toEqual({
    function: 'parse_order',
    module: 'orders',
    source: '/srv/releases/124/orders.py',
    line: 12,
    context: { firstLine: 9, lines: ['def parse_order(raw):', '    # the id is a number', top?.pre?.[2], '    return int(raw["id"])', '', '', 'def other():'] },
    app: true,
  });
  expect(shown?.[1]).toMatchObject({ function: 'dispatch_request', line: 880, app: false });
  expect(shown?.some((frame) => frame.whyNotResolved !== undefined)).toBe(false);
});
