import { MemorySourceMapStore } from '../../../../lambda/infrastructure/memory/memory-source-map-store';
import { MapCache } from '../../../../lambda/ingest/sourcemaps/map-cache';
import { SourceMapLoader } from '../../../../lambda/ingest/sourcemaps/map-loader';
import { tinyBuild } from '../../../support/tiny-build';

const REF = { kind: 'debugId' as const, debugId: '3d11fdbb-678d-44ec-a3b6-b8f35ffebdb2' };

describe('the loader of maps, which never throws', () => {
  test('a stored map is read once and kept: the next load costs no read', async () => {
    const store = new MemorySourceMapStore();
    store.put('fac_a', REF, tinyBuild().map);
    const loader = new SourceMapLoader(store);
    expect('map' in (await loader.load('fac_a', REF))).toBe(true);
    expect('map' in (await loader.load('fac_a', REF))).toBe(true);
    expect(store.reads).toHaveLength(1);
    expect(loader.cached('fac_a', REF)).toBeDefined();
  });

  test("no map is 'no-map'; another factory's map is not this one's", async () => {
    const store = new MemorySourceMapStore();
    store.put('fac_a', REF, tinyBuild().map);
    expect(await new SourceMapLoader(store).load('fac_b', REF)).toEqual({ unresolved: 'no-map' });
  });

  test("a broken map is 'map-broken', one over the bound 'map-refused'", async () => {
    const store = new MemorySourceMapStore();
    store.put('fac_a', REF, '{oops');
    expect(await new SourceMapLoader(store).load('fac_a', REF)).toEqual({ unresolved: 'map-broken' });
    store.put('fac_b', REF, tinyBuild().map);
    expect(await new SourceMapLoader(store, new MapCache(10)).load('fac_b', REF)).toEqual({ unresolved: 'map-refused' });
  });

  test("a failing store is 'map-slow', not remembered: the next load asks again", async () => {
    const store = new MemorySourceMapStore();
    store.failing = true;
    const loader = new SourceMapLoader(store);
    expect(await loader.load('fac_a', REF)).toEqual({ unresolved: 'map-slow' });
    store.failing = false;
    store.put('fac_a', REF, tinyBuild().map);
    expect('map' in (await loader.load('fac_a', REF))).toBe(true);
  });

  test("a caller that stops waiting gets 'map-slow'; the read goes on, and loads at once share it", async () => {
    const store = new MemorySourceMapStore();
    store.put('fac_a', REF, tinyBuild().map);
    store.hold();
    const loader = new SourceMapLoader(store);
    const controller = new AbortController();
    const first = loader.load('fac_a', REF, controller.signal);
    const second = loader.load('fac_a', REF);
    controller.abort();
    expect(await first).toEqual({ unresolved: 'map-slow' });
    store.release();
    expect('map' in (await second)).toBe(true);
    expect(store.reads).toHaveLength(1);
  });
});
