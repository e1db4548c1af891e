import { MemorySourceMapStore } from '../../../../lambda/infrastructure/memory/memory-source-map-store';
import type { StoredEvent } from '../../../../lambda/ingest/issues/stored-event';
import { IngestFrameResolver } from '../../../../lambda/ingest/sourcemaps/ingest-frames';
import { SourceMapLoader } from '../../../../lambda/ingest/sourcemaps/map-loader';
import { tinyBuild } from '../../../support/tiny-build';

const build = tinyBuild();
const APP = 'https://shop.example.com/assets/app.js';
const ID = '3d11fdbb-678d-44ec-a3b6-b8f35ffebdb2';
const reduce = build.at('.reduce');
const event = (stack?: string) =>
  ({ factoryId: 'fac_a', eventId: 'e', type: 'error', debugIds: { [APP]: ID }, ...(stack ? { exception: { stack } } : {}) }) as unknown as StoredEvent;
const STACK = `TypeError: x\n    at u (${APP}:${reduce.line}:${reduce.column + 1})`;

describe("the ingest API's frame resolver", () => {
  test('resolves the frames of the events that have a stack', async () => {
    const store = new MemorySourceMapStore();
    store.put('fac_a', { kind: 'debugId', debugId: ID }, build.map);
    const [resolved] = await new IngestFrameResolver(new SourceMapLoader(store)).resolve([event(STACK)]);
    expect(resolved?.frames?.[0]?.original?.source).toBe('src/cart.js');
  });

  test('a batch without a stack reads no map', async () => {
    const store = new MemorySourceMapStore();
    expect(await new IngestFrameResolver(new SourceMapLoader(store)).resolve([event()])).toEqual([event()]);
    expect(store.reads).toEqual([]);
  });

  test("past its budget, the frames say 'map-slow' and the event is not held", async () => {
    const store = new MemorySourceMapStore();
    store.put('fac_a', { kind: 'debugId', debugId: ID }, build.map);
    store.hold();
    const over = new AbortController();
    const resolving = new IngestFrameResolver(new SourceMapLoader(store), () => over.signal).resolve([event(STACK)]);
    over.abort();
    expect((await resolving)[0]?.frames?.[0]?.unresolved).toBe('map-slow');
    store.release();
  });
});
