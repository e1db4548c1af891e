import { MapCache } from './map-cache';
import { refKey } from './map-refs';
import { parseStoredMap } from './parsed-map';
import type { MapRef, SourceMapStore } from './ports';
import type { MapAnswer } from './resolve-frames';

/**
 * Maps from the store through the container's cache (map-cache.ts). Never throws: a map that is missing,
 * broken, over the bound, or not read before the caller's signal aborts is an answer saying so. One read per map
 * at a time: callers asking for a map already being read wait for that read. A read outlives a caller that gave
 * up (up to FETCH_TIMEOUT_MS), so a cold container's map still lands in the cache for the events that follow.
 */

/** How long one storage read may take at most, whoever waits for it. */
export const FETCH_TIMEOUT_MS = 10_000;

/** Resolves when `signal` aborts (never when there is none). */
function aborted(signal: AbortSignal | undefined): Promise<'aborted'> {
  return new Promise((resolve) => {
    if (!signal) return;
    if (signal.aborted) resolve('aborted');
    else signal.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
}

export class SourceMapLoader {
  private readonly reads = new Map<string, Promise<MapAnswer>>();

  constructor(
    private readonly store: SourceMapStore,
    readonly cache: MapCache = new MapCache(),
    private readonly fetchSignal: () => AbortSignal | undefined = () => AbortSignal.timeout(FETCH_TIMEOUT_MS),
  ) {}

  /** The answer already known for a ref, without reading: what the display reads first. */
  cached(factoryId: string, ref: MapRef): MapAnswer | undefined {
    return this.cache.get(refKey(factoryId, ref));
  }

  async load(factoryId: string, ref: MapRef, signal?: AbortSignal): Promise<MapAnswer> {
    const key = refKey(factoryId, ref);
    const known = this.cache.get(key);
    if (known) return known;
    let read = this.reads.get(key);
    if (!read) {
      read = this.read(factoryId, ref, key).finally(() => this.reads.delete(key));
      this.reads.set(key, read);
    }
    const answer = await Promise.race([read, aborted(signal)]);
    return answer === 'aborted' ? { unresolved: 'map-slow' } : answer;
  }

  private async read(factoryId: string, ref: MapRef, key: string): Promise<MapAnswer> {
    let stored: Awaited<ReturnType<SourceMapStore['get']>>;
    try {
      stored = await this.store.get(factoryId, ref, this.fetchSignal());
    } catch {
      // Storage failed or timed out: not remembered, the next event asks again.
      return { unresolved: 'map-slow' };
    }
    if (!stored) {
      this.cache.set(key, { unresolved: 'no-map' });
      return { unresolved: 'no-map' };
    }
    const parsed = parseStoredMap(stored, this.cache.maxBytes);
    const answer: MapAnswer = parsed.ok ? { map: parsed.map } : { unresolved: parsed.problem === 'refused' ? 'map-refused' : 'map-broken' };
    this.cache.set(key, parsed.ok ? { map: parsed.map, parsedBytes: parsed.parsedBytes } : (answer as { unresolved: 'map-refused' | 'map-broken' }));
    return answer;
  }
}
