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
  /**
   * A URL the uploader may PUT one pending upload's bytes to, for a while: signed for exactly `bytes` bytes whose
   * sha256 is `sha256` (hex), so the store itself refuses other bytes.
   */
  target(factoryId: string, uploadId: string, announced: { bytes: number; sha256: string }): Promise<UploadTarget>;
  /** Records what an upload was announced for (its ref, size and digest), beside its pending bytes. */
  announce(factoryId: string, uploadId: string, announced: { ref: MapRef; sha256: string; bytes: number }): Promise<void>;
  /** What an upload was announced for, or undefined when it never was, or was completed (or expired). */
  announcement(factoryId: string, uploadId: string): Promise<{ ref: MapRef; sha256: string; bytes: number } | undefined>;
  /** The size of a pending upload's bytes, or undefined when nothing was PUT there (or it expired). */
  pendingBytes(factoryId: string, uploadId: string): Promise<number | undefined>;
  /** A pending upload's bytes (the caller checked their size first), or undefined when gone. */
  readPending(factoryId: string, uploadId: string): Promise<Uint8Array | undefined>;
  /** Stores checked bytes as the map of `ref` (replacing any earlier map of that ref). */
  store(factoryId: string, ref: MapRef, body: Uint8Array, info: StoredMapInfo): Promise<void>;
  /** Removes a pending upload and its announcement (a no-op when they are gone): the upload cannot be completed again. */
  discard(factoryId: string, uploadId: string): Promise<void>;
}
