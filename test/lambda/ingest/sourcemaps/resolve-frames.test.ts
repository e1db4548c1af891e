import { TraceMap } from '@jridgewell/trace-mapping';
import { parseStackLocations } from '../../../../lambda/ingest/grouping/stack-frames';
import { MAX_RESOLVED_FRAMES } from '../../../../lambda/ingest/issues/resolved-frames';
import { contextAround, frameRefs, groupingLine, resolveFrames, sourceLines } from '../../../../lambda/ingest/sourcemaps/resolve-frames';
import { tinyBuild } from '../../../support/tiny-build';

const build = tinyBuild();
const map = new TraceMap(build.map);
const APP = 'https://shop.example.com/assets/app.js';
const ID = '3d11fdbb-678d-44ec-a3b6-b8f35ffebdb2';
const reduce = build.at('.reduce');
const call = build.at('u(t)}');
/** The stack V8 writes when cartTotal is called with {}: in u at `.reduce`, called from h. */
const STACK = `TypeError: Cannot read properties of undefined (reading 'reduce')\n    at u (${APP}:${reduce.line}:${reduce.column + 1})\n    at h (${APP}:${call.line}:${call.column})`;
const frames = parseStackLocations(STACK);
const withMap = () => ({ map });

describe('frames resolved through their map', () => {
  test('each to its original source, line and column (1-based), with its source line for grouping', () => {
    const [top] = resolveFrames(frames, { debugIds: { [APP]: ID } }, withMap);
    expect(top).toMatchObject({
      fn: 'u',
      file: APP,
      debugId: ID,
      original: { source: 'src/cart.js', line: 2, contextLine: 'return cart.items.reduce((sum, item) => sum + item.price, 0);' },
    });
  });

  test("a frame takes its function's name from its caller's call site in the same map", () => {
    const [top] = resolveFrames(frames, { debugIds: { [APP]: ID } }, withMap);
    expect(top?.original?.fn).toBe('cartTotal');
  });

  test('a frame with no map, or no map in time, says why; a position outside the map is said so', () => {
    expect(resolveFrames(frames, { debugIds: { [APP]: ID } }, () => ({ unresolved: 'no-map' }))[0]).toMatchObject({ unresolved: 'no-map', debugId: ID });
    expect(resolveFrames(frames, { debugIds: { [APP]: ID } }, () => undefined)[0]?.unresolved).toBe('map-slow');
    const far = parseStackLocations(`Error\n    at u (${APP}:40:1)`);
    expect(resolveFrames(far, { debugIds: { [APP]: ID } }, withMap)[0]?.unresolved).toBe('outside-map');
  });
});

describe('which frames are looked up', () => {
  test("not a browser's or an extension's, not one without a position, and not past the top 50", () => {
    const located = parseStackLocations(`Error\n    at native\n    at x (chrome-extension://abc/c.js:1:1)\n    at y (${APP})`);
    expect(frameRefs(located, {})).toEqual(expect.arrayContaining([{ unresolved: 'not-in-app' }, { unresolved: 'no-position' }]));
    const deep = Array.from({ length: MAX_RESOLVED_FRAMES + 1 }, () => frames[0]!);
    expect(frameRefs(deep, { debugIds: { [APP]: ID } })[MAX_RESOLVED_FRAMES]).toEqual({ unresolved: 'frame-limit' });
  });
});

describe("a map's source lines", () => {
  test('are read from sourcesContent; a map without it has none', () => {
    expect(sourceLines(map, 'src/cart.js')?.[0]).toBe('export function cartTotal(cart) {');
    expect(sourceLines(new TraceMap(tinyBuild({ sourcesContent: false }).map), 'src/cart.js')).toBeUndefined();
  });

  test('around a line: radius before and after, within the file', () => {
    expect(contextAround(map, 'src/cart.js', 1, 1)).toEqual({
      firstLine: 1,
      lines: ['export function cartTotal(cart) {', '  return cart.items.reduce((sum, item) => sum + item.price, 0);'],
    });
    expect(contextAround(map, 'src/cart.js', 99, 3)).toBeUndefined();
  });

  test('the line grouping keeps: whitespace collapsed, at most 120 characters', () => {
    expect(groupingLine('   a \t  b  ')).toBe('a b');
    expect(groupingLine('x'.repeat(500))).toHaveLength(120);
  });
});
