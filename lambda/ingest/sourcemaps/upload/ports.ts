import type { MapRef } from '../ports';

/** What is known of a stored map without reading it. */
export interface StoredMapInfo {
  /** Hex sha256 of the map's bytes, as recorded when it was stored. */
  sha256: string;
  bytes: number;
  /** When it was stored (ms since the epoch), when the store says. */
  storedAtMs?: number;
}

/** Where the uploader sends the map's bytes itself (never through the API's function). */
export interface UploadTarget {
  url: string;
  method: 'PUT';
  /** Headers the PUT must carry. */
  headers: Record<string, string>;
  expiresAt: string;
}

/**
 * Where uploads land and maps are kept (lambda/infrastructure/store/source-maps on S3). An
 * upload goes to a pending place of its own first; only a map that passed
 * the checks is stored under its ref. Every call is scoped to one factory.
 * Calls throw StorageUnavailableError when the store fails.
 */
export interface MapUploads {
  /** The map stored for this ref, or undefined. */
  stored(factoryId: string, ref: MapRef): Promise<StoredMapInfo | undefined>;
  /** A URL the uploader may PUT one pending upload's bytes to, for a while. */
  target(factoryId: string, uploadId: string): Promise<UploadTarget>;
  /** The size of a pending upload's bytes, or undefined when nothing was PUT there (or it expired). */
  pendingBytes(factoryId: string, uploadId: string): Promise<number | undefined>;
  /** A pending upload's bytes (the caller checked their size first), or undefined when gone. */
  readPending(factoryId: string, uploadId: string): Promise<Uint8Array | undefined>;
  /** Stores checked bytes as the map of `ref` (replacing any earlier map of that ref). */
  store(factoryId: string, ref: MapRef, body: Uint8Array, info: StoredMapInfo): Promise<void>;
  /** Removes a pending upload (a no-op when it is gone). */
  discard(factoryId: string, uploadId: string): Promise<void>;
}
