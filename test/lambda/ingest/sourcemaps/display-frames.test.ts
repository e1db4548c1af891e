import { MemorySourceMapStore } from '../../../../lambda/infrastructure/memory/memory-source-map-store';
import { CONTEXT_RADIUS, framesForDisplay } from '../../../../lambda/ingest/sourcemaps/display-frames';
import { SourceMapLoader } from '../../../../lambda/ingest/sourcemaps/map-loader';
import { tinyBuild } from '../../../support/tiny-build';

const build = tinyBuild();
const APP = 'https://shop.example.com/assets/app.js';
const ID = '3d11fdbb-678d-44ec-a3b6-b8f35ffebdb2';
const reduce = build.at('.reduce');
const EVENT = {
  factoryId: 'fac_a',
  debugIds: { [APP]: ID },
  exception: { stack: `TypeError: x\n    at u (${APP}:${reduce.line}:${reduce.column + 1})` },
  // As stored at ingest, before the map was there.
  frames: [{ fn: 'u', file: APP, line: reduce.line, column: reduce.column + 1, debugId: ID, unresolved: 'no-map' as const }],
};

describe('frames as shown', () => {
  test('resolved again when shown: the original frame with its source lines around it, the minified one beside', async () => {
    const store = new MemorySourceMapStore();
    store.put('fac_a', { kind: 'debugId', debugId: ID }, build.map);
    const [frame] = (await framesForDisplay(EVENT, new SourceMapLoader(store))) ?? [];
    expect(frame).toMatchObject({ source: 'src/cart.js', line: 2, minified: { function: 'u', url: APP, debugId: ID } });
    expect(frame?.context?.firstLine).toBe(1);
    expect(frame?.context?.lines.length).toBeLessThanOrEqual(2 * CONTEXT_RADIUS + 1);
    expect(frame?.whyNotResolved).toBeUndefined();
  });

  test('without a loader, as resolved at ingest: each unresolved frame says why', async () => {
    const [frame] = (await framesForDisplay(EVENT)) ?? [];
    expect(frame).toEqual({
      app: true,
      minified: { function: 'u', url: APP, line: reduce.line, column: reduce.column + 1, debugId: ID },
      whyNotResolved: expect.stringMatching(/^no map uploaded for debug id/),
    });
  });

  test('an event without frames shows none', async () => {
    expect(await framesForDisplay({ factoryId: 'fac_a' })).toBeUndefined();
  });
});
