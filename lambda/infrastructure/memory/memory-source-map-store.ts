import { StorageUnavailableError } from '../../kernel/errors';
import type { MapRef, SourceMapStore, StoredMap } from '../../ingest/sourcemaps/ports';

/**
 * SourceMapStore in memory, for the rules: maps kept per factory and ref, as the S3 adapter keys them
 * (factory first, so one factory's maps never answer for another). `failing` makes every read fail, and
 * `hold` makes reads wait until released or aborted: how a slow or broken storage is tried without a clock.
 */
export class MemorySourceMapStore implements SourceMapStore {
  private readonly maps = new Map<string, StoredMap>();
  /** Reads made, in order: what a cache test counts. */
  readonly reads: { factoryId: string; ref: MapRef }[] = [];
  failing = false;
  private held: (() => void)[] | undefined;

  put(factoryId: string, ref: MapRef, text: string): void {
    this.maps.set(keyOf(factoryId, ref), { text, bytes: Buffer.byteLength(text) });
  }

  /** Reads wait from now on, until release(). */
  hold(): void {
    this.held ??= [];
  }

  release(): void {
    const waiting = this.held ?? [];
    this.held = undefined;
    for (const resume of waiting) resume();
  }

  async get(factoryId: string, ref: MapRef, signal?: AbortSignal): Promise<StoredMap | undefined> {
    this.reads.push({ factoryId, ref });
    if (this.held) {
      const waiting = this.held;
      await new Promise<void>((resolve, reject) => {
        waiting.push(resolve);
        signal?.addEventListener('abort', () => reject(new StorageUnavailableError('GetObject (source map)', new Error('aborted'))), { once: true });
      });
    }
    if (this.failing) throw new StorageUnavailableError('GetObject (source map)', new Error('injected failure'));
    return this.maps.get(keyOf(factoryId, ref));
  }
}

const keyOf = (factoryId: string, ref: MapRef): string =>
  ref.kind === 'debugId' ? `${factoryId}/debug-id/${ref.debugId}` : `${factoryId}/release/${ref.release}/${ref.path}`;
