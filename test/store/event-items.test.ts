import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { buildSync, stop } from 'esbuild';
import fc from 'fast-check';
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import vm from 'node:vm';
import { debugIdsOf } from '../../browser-sdk/src/debug-ids';
import { controlDependencies } from '../../lambda/control/control-room-wiring';
import { handleControlRequest } from '../../lambda/control/handle-request';
import { DICTIONARY_V1, REASON_CODES_V1 } from '../../lambda/infrastructure/store/reports/event-detail';
import { EVENT_DETAIL_ATTRIBUTE, eventItemOf, storedEventOf } from '../../lambda/infrastructure/store/reports/event-items';
import { MemorySourceMapStore } from '../../lambda/infrastructure/memory/memory-source-map-store';
import { parseStackLocations } from '../../lambda/ingest/grouping/stack-frames';
import { UNRESOLVED_REASONS, type ResolvedFrame } from '../../lambda/ingest/issues/resolved-frames';
import type { StoredEvent } from '../../lambda/ingest/issues/stored-event';
import { readEvent } from '../../lambda/ingest/payloads';
import { storedEvent, withGrouping, type RequestReceipt } from '../../lambda/ingest/receive-events';
import { readSentryEvent } from '../../lambda/ingest/sentry/sentry-event';
import { DEBUG_ID_REGISTRY } from '../../lambda/ingest/sourcemaps/debug-id-snippet';
import { IngestFrameResolver } from '../../lambda/ingest/sourcemaps/ingest-frames';
import { SourceMapLoader } from '../../lambda/ingest/sourcemaps/map-loader';
import { itemSize } from '../../tools/bench/cost';
import { pageStackOf, type PageError } from '../../tools/storm/minified-app';
import { TYPICAL_SITE, TYPICAL_USER_AGENT, typicalError, typicalOwnEvent, typicalSentryEvent } from '../../tools/storm/typical-error';
import { EVENTS, randomClient } from '../support/ingest';
import { readableItem, tableItems } from '../support/items';
import { issuePublishableKey, newFactoryId, realIngestDependencies, startLocalHost, tables, testDoc } from '../support/local-api';
import { inject } from '../support/source-map-app';
import { tallied } from '../support/tally';

/**
 * The event item (docs/capacity.md#the-event-item): a typical error fits one write unit whatever sent it, its stack
 * is kept once, every event reads back exactly as it was stored (from the table, and from a Lambda stream record),
 * and items of the earlier layouts read as they did, through every reader: lists, counts, exports and erasure.
 */

const receipt = (factoryId = 'fac_acme_shop'): RequestReceipt => ({
  factoryId,
  keyId: 'key_3k9XcQ2mLpR7xW0a',
  origin: TYPICAL_SITE,
  userAgent: TYPICAL_USER_AGENT,
  receivedAt: new Date().toISOString(),
  expiresAt: Math.floor(Date.now() / 1000) + 90 * 86_400,
  visitor: 'a1b2c3d4',
  requestToken: randomUUID(),
});

/** The 5-frame app of the typical error, built minified with its map and injected, as a site deploys it. */
const APP_SOURCES: Record<string, string> = {
  'src/cart.js': [
    'export function renderCart(cart) {',
    '  let total = 0;',
    '  for (const line of cart.lines) total += line.product.price * line.quantity;',
    '  return total;',
    '}',
    'export function CartView(props) {',
    '  return { total: renderCart(props.cart) };',
    '}',
    '',
  ].join('\n'),
  'src/totals.js':
    "import { CartView } from './cart.js';\nexport function updateTotals(state) {\n  state.view = CartView({ cart: state.cart });\n  return state;\n}\n",
  'src/store.js':
    "import { updateTotals } from './totals.js';\nexport function dispatch(state, action) {\n  if (action.type === 'checkout') return updateTotals(state);\n  return state;\n}\n",
  'src/main.js':
    "import { dispatch } from './store.js';\nexport function onClick() {\n  return dispatch({ cart: { lines: [{ quantity: 1 }] } }, { type: 'checkout' });\n}\nglobalThis.onClick = onClick;\n",
};

/** The app built and injected; the error its page reports (V8's stack, the app's five frames) and the map to resolve it. */
async function mappedApp(): Promise<{ error: PageError; debugId: string; map: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'typical-app-'));
  try {
    mkdirSync(join(dir, 'src'));
    for (const [name, text] of Object.entries(APP_SOURCES)) writeFileSync(join(dir, name), text);
    const result = buildSync({
      absWorkingDir: dir,
      entryPoints: ['src/main.js'],
      bundle: true,
      minify: true,
      format: 'iife',
      sourcemap: 'external',
      outfile: 'dist/app.js',
      write: false,
      logLevel: 'silent',
    });
    const code = result.outputFiles.find((file) => file.path.endsWith('.js'))?.text as string;
    const built = inject(code, result.outputFiles.find((file) => file.path.endsWith('.map'))?.text as string);
    const url = `${TYPICAL_SITE}/assets/index-${createHash('sha256').update(built.code).digest('hex').slice(0, 8)}.js`;
    const context = vm.createContext({});
    vm.runInContext(built.code, context, { filename: url });
    try {
      vm.runInContext('onClick()', context, { filename: `${TYPICAL_SITE}/inline.js` });
    } catch (thrown) {
      const { name, message } = thrown as Error;
      // The app's own frames, from the "TypeError: …" line (not the page's inline caller, nor vm's decoration).
      const pageStack = pageStackOf(thrown as Error, url);
      const debugIds = debugIdsOf(pageStack, [(context as Record<string, Record<string, string> | undefined>)[DEBUG_ID_REGISTRY]]);
      return { error: { type: name, value: message, stack: pageStack, ...(debugIds ? { debugIds } : {}) }, debugId: built.debugId, map: built.map };
    }
    throw new Error('the app did not throw');
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await stop();
  }
}

type Kind = { protocol: 'own' | 'sentry'; mapped: boolean };

/** A typical error as the ingest API stores it: read by its protocol's reader, its frames resolved (through the app's real map when mapped), grouped. */
async function storedTypical({ protocol, mapped }: Kind, app: Awaited<ReturnType<typeof mappedApp>>): Promise<StoredEvent> {
  const error = mapped ? app.error : typicalError();
  const reading = protocol === 'own' ? readEvent(typicalOwnEvent(error)) : readSentryEvent(typicalSentryEvent(error));
  if (!reading.ok) throw new Error(reading.problems.join('; '));
  const event = storedEvent(reading.value, receipt(), 0);
  const maps = new MemorySourceMapStore();
  maps.put(event.factoryId, { kind: 'debugId', debugId: app.debugId }, app.map);
  const [resolved] = await new IngestFrameResolver(new SourceMapLoader(maps)).resolve([event]);
  return withGrouping(resolved as StoredEvent);
}

const KINDS: Kind[] = [
  { protocol: 'own', mapped: false },
  { protocol: 'own', mapped: true },
  { protocol: 'sentry', mapped: false },
  { protocol: 'sentry', mapped: true },
];

describe('a typical error', () => {
  let app: Awaited<ReturnType<typeof mappedApp>>;
  beforeAll(async () => {
    app = await mappedApp();
  });

  test.each(KINDS)('(%o) with its tags and user agent is one item of at most 1 KB: one write unit', async (kind) => {
    const event = await storedTypical(kind, app);
    expect(event.frames).toHaveLength(5);
    if (kind.mapped) expect(event.frames?.every((frame) => frame.original !== undefined)).toBe(true);
    if (kind.protocol === 'sentry') expect(event.sdkFrames).toHaveLength(5);
    expect(event.userAgent).toBe(TYPICAL_USER_AGENT);
    expect(Object.keys(event.tags ?? {}).length).toBeGreaterThanOrEqual(2);
    const bytes = itemSize(marshall(eventItemOf(event), { removeUndefinedValues: true }));
    expect(bytes).toBeLessThanOrEqual(1024);
  });

  test.each(KINDS)('(%o) keeps its stack once: each frame, written in full, is in what is stored once, and reads back whole', async (kind) => {
    const event = await storedTypical(kind, app);
    const item = eventItemOf(event);
    const detail = await import('../../lambda/infrastructure/store/reports/event-detail');
    const kept = JSON.stringify(detail.decodeDetail(item[EVENT_DETAIL_ATTRIBUTE] as Uint8Array));
    for (const frame of event.frames ?? []) {
      // The frame's place (script and position) once: in the frames, not again in the stack text or the SDK's frames.
      expect(kept.split(`${JSON.stringify(frame.file).slice(0, -1)}","line":${frame.line},"column":${frame.column}`).length - 1).toBe(1);
      expect(kept).not.toContain(`${frame.file}:${frame.line}:${frame.column}`);
    }
    expect(storedEventOf(item)).toEqual(event);
  });
});

/** Stack lines of every kind browsers, SDKs and people write: frames V8 and Gecko write, ones the parser reads otherwise, and others. */
const stackLine = fc.oneof(
  fc
    .record({ fn: fc.constantFrom('render', 'a.b', '', 'x y'), line: fc.nat(9999), column: fc.nat(9999) })
    .map(({ fn, line, column }) =>
      fn === '' ? `    at https://h.example/app.js:${line}:${column}` : `    at ${fn} (https://h.example/app.js:${line}:${column})`,
    ),
  fc
    .record({ fn: fc.constantFrom('render', 'outer/<', ''), line: fc.nat(999), column: fc.nat(999) })
    .map(({ fn, line, column }) => `${fn}@https://h.example/b.js:${line}:${column}`),
  fc.constantFrom(
    '    at async load (https://h.example/app.js:3:4)',
    '    at new Cart (https://h.example/app.js:5:6)',
    '    at fn (eval at outer (https://h.example/app.js:1:2), <anonymous>:1:2)',
    '    at Array.map (<anonymous>)',
    'fn@[native code]',
    'TypeError: x is undefined',
    'Caused by: Error: boom',
    '',
    '\u0001 a line that begins with a marker',
    '\u0003\u0004',
  ),
  fc.string({ maxLength: 40 }).filter((text) => !text.includes('\n')),
);

/** An event with a stack, its frames resolved in every way a frame can be, and maybe a Sentry SDK's frames (some at their frame's place). */
const anyEvent = fc
  .record({
    lines: fc.array(stackLine, { maxLength: 12 }),
    reasons: fc.array(fc.option(fc.constantFrom(...UNRESOLVED_REASONS), { nil: undefined }), { minLength: 12, maxLength: 12 }),
    sdk: fc.option(
      fc.array(fc.record({ same: fc.boolean(), inApp: fc.option(fc.boolean(), { nil: undefined }), module: fc.option(fc.string(), { nil: undefined }) })),
      { nil: undefined },
    ),
    reporter: fc.option(fc.record({ email: fc.emailAddress(), name: fc.string() }), { nil: undefined }),
    tags: fc.option(fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.string()), { nil: undefined }),
    extra: fc.dictionary(fc.constantFrom('constructor', '__proto__', 'future', '~'), fc.string(), { maxKeys: 2 }),
  })
  .map(({ lines, reasons, sdk, reporter, tags, extra }): StoredEvent => {
    const stack = lines.join('\n');
    const frames: ResolvedFrame[] = parseStackLocations(stack).map((frame, index) => {
      const reason = reasons[index % reasons.length];
      if (reason !== undefined) return { ...frame, unresolved: reason };
      return {
        ...frame,
        debugId: '00000000-0000-4000-8000-000000000000',
        original: { source: 'webpack://app/./src/a.ts', line: index + 1, column: 1, fn: 'f', contextLine: 'a();' },
      };
    });
    const sdkFrames = sdk?.map((entry, index) => {
      const frame = frames[index];
      const place =
        entry.same && frame
          ? {
              ...(frame.fn === '' ? {} : { function: frame.fn }),
              file: frame.file,
              ...(frame.line === undefined ? {} : { line: frame.line }),
              ...(frame.column === undefined ? {} : { column: frame.column }),
            }
          : { function: `sdk${index}`, file: 'app:///a.js', line: index };
      return { ...place, ...(entry.inApp === undefined ? {} : { inApp: entry.inApp }), ...(entry.module === undefined ? {} : { module: entry.module }) };
    });
    const base = storedEvent(
      {
        eventId: randomUUID(),
        type: 'error',
        exception: { type: 'TypeError', stack },
        ...(reporter ? { reporter } : {}),
        ...(tags ? { tags } : {}),
        ...(sdkFrames ? { sdkFrames } : {}),
      },
      receipt(),
      0,
    );
    return { ...base, ...(frames.length > 0 ? { frames } : {}), issueId: 'iss_00000000000000000000', ...extra } as StoredEvent;
  });

describe('any event', () => {
  test('reads back exactly as it was stored, from the table and from a Lambda stream record (binary values in base64)', () => {
    fc.assert(
      fc.property(anyEvent, (event) => {
        const item = eventItemOf(event);
        expect(storedEventOf(unmarshall(marshall(item, { removeUndefinedValues: true })))).toEqual(event);
        const streamed = { ...item, [EVENT_DETAIL_ATTRIBUTE]: Buffer.from(item[EVENT_DETAIL_ATTRIBUTE] as Uint8Array).toString('base64') };
        expect(storedEventOf(streamed)).toEqual(event);
      }),
      { numRuns: 150 },
    );
  });

  test('keeps its reporter and person key outside the detail, where an erasure removes them, and nothing else but its key, its expiry and (for the person index) its receive time', () => {
    const event = {
      ...storedEvent({ eventId: randomUUID(), type: 'bug_report', reporter: { email: 'ada@example.com', name: 'Ada' } }, receipt(), 0),
      person: 'person_00',
    };
    const item = eventItemOf(event);
    expect(Object.keys(item).sort()).toEqual(['d', 'expiresAt', 'person', 'pk', 'receivedAt', 'reporter']);
    const { reporter: _reporter, person: _person, ...erased } = item;
    expect(storedEventOf(erased)).toEqual(storedEventOf({ ...item, reporter: undefined, person: undefined }));
    expect(storedEventOf(erased).reporter).toBeUndefined();
  });
});

describe('layout 1', () => {
  test('is pinned: its dictionary and reason codes are what every stored item was written with (a change is a new layout byte)', () => {
    expect(createHash('sha256').update(DICTIONARY_V1).digest('hex').slice(0, 16)).toBe('fad4bf635c37ab95');
    expect(REASON_CODES_V1).toEqual([
      'not-in-app',
      'no-position',
      'no-debug-id',
      'url-mismatch',
      'no-map',
      'outside-map',
      'map-refused',
      'map-broken',
      'map-slow',
      'frame-limit',
    ]);
    // Every reason a frame can have today has its code.
    expect(UNRESOLVED_REASONS.filter((reason) => !REASON_CODES_V1.includes(reason))).toEqual([]);
  });

  test('an item written by layout 1 reads back as it did', () => {
    expect(storedEventOf({ pk: `event#fac_pinned#${PINNED_EVENT_ID}`, expiresAt: 1_900_000_000, d: PINNED_ITEM })).toEqual(pinnedEvent());
  });
});

/** The `d` layout 1 wrote (base64) for pinnedEvent(): deflate's output may differ between zlib versions, what it reads back may not. */
const PINNED_ITEM =
  'AbVWXW+bMBT9KxF72Cphcv0BxkzTJvV1L/voNlXtg79QWQkgIGqmKf99clYFSEBDHXmyQNY9vvccn+Pfg7HSR/FDfyKbj9VnvvsO8qiR3nSah7IK7E5uqtwGutx4/jRnl3eiw90aEE8ihAmC6CvwhEECEADArSPjKAiJFdHUMM8/5XbIfL8UFUkoghiT24EEXkxQVWfavr7y/AuJqKv/31p6LnVX3G0BAM9c6bPCZPOr0Ku8lGb1ZkpDa9k0tm3WWWHsDrFUSKKxCn42iUjElbf3R27pWQ0t6/Z909rqHRk47pNVH1hAAnD8/tuq81LLg43aAt188XyvymXxd5M7yNC+R535Ej8P670/tLJQYkO1sIgrkiJmY4lUpBnCKVhhYs1VJF+5tk+zoraFsfW1rNvz1JjNzTFecJcvGBjtZ4yGNLUWAGFCGWJSaRQbmyJw32HEYyHVVBAFwbqp9YHWPhrt0Lg/0s4wO2vbbuti1ZatzN96+2OGuc3fMvu0RP+kOxGBmPMLD4CfD6DXzbz2t5WRTketzJslRtAjJcQEpl4OJmsq2eqHJSBZBxnHhOIpzLK4zjP9uARk2BM6dTyPIzqvWwJOdHBiiCWcFYy9wuaDzJTm3j95L6WKpxpHLIqwYgJApMR4+z8=';
const PINNED_EVENT_ID = '0b7c1f3e-3d42-4b7e-9a43-2f5d1e0b7c11';

/** A typical Sentry error with an async frame the stack text keeps as sent, two frames mapped and the rest not, one past the limit. */
function pinnedEvent(): StoredEvent {
  const file = 'https://shop.example.com/assets/index-4f9a2c1b.js';
  const functions = ['renderCart', 'CartView', 'updateTotals', 'dispatch', 'onClick'];
  const columns = [1043, 20877, 5120, 88231, 1377];
  const debugId = 'c0ffee00-1234-4abc-8def-0123456789ab';
  const value = "Cannot read properties of undefined (reading 'price')";
  return {
    factoryId: 'fac_pinned',
    keyId: 'key_3k9XcQ2mLpR7xW0a',
    origin: 'https://shop.example.com',
    userAgent: TYPICAL_USER_AGENT,
    receivedAt: '2026-12-06T07:40:00.000Z',
    expiresAt: 1_900_000_000,
    visitor: 'a1b2c3d4',
    eventId: PINNED_EVENT_ID,
    type: 'error',
    timestamp: '2026-12-06T07:39:59.812Z',
    message: `TypeError: ${value}`,
    exception: {
      type: 'TypeError',
      value,
      stack: [`TypeError: ${value}`, ...functions.map((fn, i) => `    at ${fn} (${file}:${i + 1}:${columns[i]})`), `    at async load (${file}:9:9)`].join(
        '\n',
      ),
    },
    pageUrl: 'https://shop.example.com/cart?step=2',
    release: 'web@4.2.0',
    tags: { environment: 'production', locale: 'en-US', plan: 'pro' },
    sdkFrames: [
      ...functions.map((fn, i) => ({ function: fn, file, line: i + 1, column: columns[i], inApp: true })),
      { function: 'load', file, line: 9, column: 9 },
    ],
    writeToken: '5a1d3c9e-7b2f-4e8a-b6c4-1f0e9d8c7b6a#0',
    frames: [
      ...functions.map((fn, i): ResolvedFrame => {
        const place = { fn, file, line: i + 1, column: columns[i] as number };
        return i < 2
          ? { ...place, debugId, original: { source: '../src/cart.js', line: 3 + i * 4, column: 7, fn, contextLine: 'return total;' } }
          : { ...place, unresolved: 'no-map' };
      }),
      { fn: 'load', file, line: 9, column: 9, unresolved: 'frame-limit' },
    ],
    debugIds: { [file]: debugId },
    issueId: 'iss_fb7fc164661b49009f2d',
  };
}

describe('items of the earlier layouts', () => {
  const earlier = (event: StoredEvent, layout: 'issue' | 'issueId+feed') => {
    const { issueId, ...rest } = event;
    return {
      pk: `event#${event.factoryId}#${event.eventId}`,
      ...rest,
      ...(layout === 'issue' ? { issue: issueId } : { issueId, feed: `${event.factoryId}#events` }),
    };
  };

  test('read as they did: every field an attribute, the issue under `issue` (or `issueId` and a feed)', async () => {
    const event = await storedTypical({ protocol: 'sentry', mapped: false }, await mappedApp());
    expect(storedEventOf(earlier(event, 'issue'))).toEqual(event);
    expect(storedEventOf(earlier(event, 'issueId+feed'))).toEqual(event);
  });

  test('and an item of each layout, side by side in the table, is listed, counted, exported and erased alike', async () => {
    const api = await startLocalHost(realIngestDependencies());
    try {
      const factoryId = newFactoryId('layouts');
      const { key } = await issuePublishableKey(factoryId, [TYPICAL_SITE]);
      const email = `ada.${randomUUID().slice(0, 8)}@example.com`;
      const sent = { ...typicalOwnEvent(), reporter: { email, name: 'Ada' } };
      const posted = await api.request('POST', EVENTS, {
        headers: { Origin: TYPICAL_SITE, 'Content-Type': 'application/json', Authorization: `Bearer ${key}`, 'User-Agent': TYPICAL_USER_AGENT },
        body: JSON.stringify({ events: [sent] }),
        localAddress: randomClient(),
      });
      expect(posted.status).toBe(202);
      await tallied();
      const [written] = (await tableItems(tables.reports)).filter((item) => item.pk === `event#${factoryId}#${sent.eventId}`);
      const stored = storedEventOf({ ...(written as Record<string, unknown>) });
      // The same bug stored by the earlier code: its own item, every field an attribute, the issue under `issue`.
      const old = { ...stored, eventId: randomUUID(), writeToken: 'earlier#0' };
      await testDoc().send(new PutCommand({ TableName: tables.reports, Item: earlier(old, 'issue') }));
      await tallied();

      const control = controlDependencies(testDoc(), tables, 'Test Platform', { keys: tables.keys, reports: tables.reports });
      const by = { principal: 'arn:aws:sts::123456789012:assumed-role/ControlRoom/test' };
      const call = async (request: Record<string, unknown>) => (await handleControlRequest(control, request, by)).body as Record<string, any>;
      const ids = [sent.eventId, old.eventId].sort();
      expect((await call({ operation: 'reports.events', factoryId })).events.map((event: { eventId: string }) => event.eventId).sort()).toEqual(ids);
      const issue = await call({ operation: 'issues.show', factoryId, issueId: stored.issueId });
      expect(issue.issue.count).toBe(2);
      expect(issue.events.map((event: { eventId: string }) => event.eventId).sort()).toEqual(ids);
      for (const eventId of ids)
        expect((await call({ operation: 'reports.event', factoryId, eventId })).event).toMatchObject({ eventId, message: sent.message });
      const exported = await call({ operation: 'contacts.export-person', factoryId, email });
      expect(exported.reports.map((report: { eventId: string }) => report.eventId).sort()).toEqual(ids);
      const erased = await call({ operation: 'contacts.erase', factoryId, email });
      expect(erased).toMatchObject({ events: 2, complete: true });
      const left = (await tableItems(tables.reports)).filter((item) => String(item.pk).startsWith(`event#${factoryId}#`));
      expect(left).toHaveLength(2);
      expect(JSON.stringify(left.map(readableItem))).not.toContain(email);
    } finally {
      await api.close();
    }
  });
});
