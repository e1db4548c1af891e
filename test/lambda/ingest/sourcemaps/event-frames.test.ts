import { MemorySourceMapStore } from '../../../../lambda/infrastructure/memory/memory-source-map-store';
import { framesOf, loadMapsFor, MAX_MAPS_PER_EVENT, withResolvedFrames } from '../../../../lambda/ingest/sourcemaps/event-frames';
import { SourceMapLoader } from '../../../../lambda/ingest/sourcemaps/map-loader';
import { tinyBuild } from '../../../support/tiny-build';

const build = tinyBuild();
const APP = 'https://shop.example.com/assets/app.js';
const ID = '3d11fdbb-678d-44ec-a3b6-b8f35ffebdb2';
const reduce = build.at('.reduce');
const EVENT = { factoryId: 'fac_a', debugIds: { [APP]: ID }, exception: { stack: `TypeError: x\n    at u (${APP}:${reduce.line}:${reduce.column + 1})` } };

function loader() {
  const store = new MemorySourceMapStore();
  store.put('fac_a', { kind: 'debugId', debugId: ID }, build.map);
  return { store, loader: new SourceMapLoader(store) };
}

describe("events' frames, resolved", () => {
  test("each event gets its stack's frames resolved through the maps it asks for", async () => {
    const [event] = await withResolvedFrames(loader().loader, [EVENT]);
    expect(event?.frames?.[0]?.original).toMatchObject({ source: 'src/cart.js', line: 2 });
  });

  test('an event without a stack frame is left as it is', async () => {
    const plain = { factoryId: 'fac_a', exception: { stack: 'just text' } };
    const [event] = await withResolvedFrames(loader().loader, [plain]);
    expect(event).toBe(plain);
    expect(framesOf(plain, new Map())).toBeUndefined();
  });

  test('the maps of a batch are read once each, whatever the number of events asking', async () => {
    const { store, loader: maps } = loader();
    await loadMapsFor(maps, [EVENT, EVENT, EVENT]);
    expect(store.reads).toHaveLength(1);
  });

  test('one event asks for at most 10 distinct maps', async () => {
    const { store, loader: maps } = loader();
    const ids = Object.fromEntries(
      Array.from({ length: 15 }, (_, n) => [`https://cdn${n}.example.com/a.js`, `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`]),
    );
    const stack = ['Error', ...Object.keys(ids).map((url) => `    at f (${url}:1:1)`)].join('\n');
    await loadMapsFor(maps, [{ factoryId: 'fac_a', debugIds: ids, exception: { stack } }]);
    expect(store.reads).toHaveLength(MAX_MAPS_PER_EVENT);
  });
});
