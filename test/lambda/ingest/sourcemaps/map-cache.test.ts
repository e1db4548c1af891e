import { TraceMap } from '@jridgewell/trace-mapping';
import { cacheBytesFromEnv, DEFAULT_CACHE_BYTES, MapCache, NEGATIVE_ANSWER_MS } from '../../../../lambda/ingest/sourcemaps/map-cache';
import { tinyBuild } from '../../../support/tiny-build';

const map = new TraceMap(tinyBuild().map);
const parsed = (bytes: number) => ({ map, parsedBytes: bytes });

describe("the container's cache of parsed maps", () => {
  test('keeps maps within its byte bound, dropping the least recently used first', () => {
    const cache = new MapCache(100);
    cache.set('a', parsed(40));
    cache.set('b', parsed(40));
    cache.get('a');
    cache.set('c', parsed(40));
    expect([cache.get('a'), cache.get('b'), cache.get('c')].map((found) => found !== undefined)).toEqual([true, false, true]);
    expect(cache.heldBytes).toBe(80);
  });

  test('a map bigger than the whole bound is not kept', () => {
    const cache = new MapCache(100);
    cache.set('huge', parsed(101));
    expect([cache.get('huge'), cache.heldBytes]).toEqual([undefined, 0]);
  });

  test('a negative answer (no map, broken) is believed for a minute, then asked again; 0 keeps none', () => {
    let now = 0;
    const cache = new MapCache(100, () => now);
    cache.set('missing', { unresolved: 'no-map' });
    now = NEGATIVE_ANSWER_MS - 1;
    expect(cache.get('missing')).toEqual({ unresolved: 'no-map' });
    now = NEGATIVE_ANSWER_MS;
    expect(cache.get('missing')).toBeUndefined();
    const display = new MapCache(100, () => 0, 0);
    display.set('missing', { unresolved: 'no-map' });
    expect(display.get('missing')).toBeUndefined();
  });

  test('a key set again replaces its answer and its bytes', () => {
    const cache = new MapCache(100);
    cache.set('a', parsed(60));
    cache.set('a', parsed(30));
    expect(cache.heldBytes).toBe(30);
  });
});

test("the bound: SOURCE_MAP_CACHE_MB, else a quarter of the function's memory, else the default", () => {
  expect(cacheBytesFromEnv({ SOURCE_MAP_CACHE_MB: '64' })).toBe(64 * 1024 * 1024);
  expect(cacheBytesFromEnv({ AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1024' })).toBe(256 * 1024 * 1024);
  expect(cacheBytesFromEnv({})).toBe(DEFAULT_CACHE_BYTES);
});
