import type { MapRef } from '../../lambda/ingest/sourcemaps/ports';
import type { MapUploads, StoredMapInfo } from '../../lambda/ingest/sourcemaps/upload/ports';

/** What an upload was announced for. */
type Announced = { ref: MapRef; sha256: string; bytes: number };

/**
 * The upload port in memory, for the upload steps' own tests: announcements,
 * pending uploads the test PUTs itself (put), stored maps by factory and ref. The S3
 * adapter is held to the same steps over HTTP in test/sourcemaps/upload-api.test.ts.
 */
export class MemoryMapUploads implements MapUploads {
  readonly pending = new Map<string, Uint8Array>();
  readonly maps = new Map<string, { body: Uint8Array; info: StoredMapInfo }>();
  readonly announced = new Map<string, Announced>();
  private readonly key = (factoryId: string, ref: MapRef) => `${factoryId}\n${ref.kind === 'debugId' ? ref.debugId : `${ref.release}\n${ref.path}`}`;

  /** The uploader's PUT of a pending upload's bytes. */
  put(factoryId: string, uploadId: string, body: string | Uint8Array): void {
    this.pending.set(`${factoryId}/${uploadId}`, typeof body === 'string' ? new TextEncoder().encode(body) : body);
  }

  async stored(factoryId: string, ref: MapRef): Promise<StoredMapInfo | undefined> {
    return this.maps.get(this.key(factoryId, ref))?.info;
  }

  async announce(factoryId: string, uploadId: string, announced: Announced): Promise<void> {
    this.announced.set(`${factoryId}/${uploadId}`, announced);
  }

  async announcement(factoryId: string, uploadId: string): Promise<Announced | undefined> {
    return this.announced.get(`${factoryId}/${uploadId}`);
  }

  async target(factoryId: string, uploadId: string, _announced: { bytes: number; sha256: string }) {
    return { url: `https://maps.example.com/${factoryId}/${uploadId}`, method: 'PUT' as const, headers: {}, expiresAt: '2026-11-22T09:00:00.000Z' };
  }

  async pendingBytes(factoryId: string, uploadId: string): Promise<number | undefined> {
    return this.pending.get(`${factoryId}/${uploadId}`)?.byteLength;
  }

  async readPending(factoryId: string, uploadId: string): Promise<Uint8Array | undefined> {
    return this.pending.get(`${factoryId}/${uploadId}`);
  }

  async store(factoryId: string, ref: MapRef, body: Uint8Array, info: StoredMapInfo): Promise<void> {
    this.maps.set(this.key(factoryId, ref), { body, info });
  }

  async discard(factoryId: string, uploadId: string): Promise<void> {
    this.pending.delete(`${factoryId}/${uploadId}`);
    this.announced.delete(`${factoryId}/${uploadId}`);
  }
}
