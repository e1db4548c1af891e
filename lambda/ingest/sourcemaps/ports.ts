/** Which map a frame asks for. */
export type MapRef = { kind: 'debugId'; debugId: string } | { kind: 'release'; release: string; path: string };

/** A stored map as the resolver receives it: the raw JSON text, already size-checked at upload. */
export interface StoredMap {
  text: string;
  bytes: number;
}

/** Where maps are kept (lambda/infrastructure/store/source-maps on S3; lambda/infrastructure/memory twin for the rules). */
export interface SourceMapStore {
  /** The map, or undefined when none is stored for this factory and ref. Throws StorageUnavailableError on failure. */
  get(factoryId: string, ref: MapRef, signal?: AbortSignal): Promise<StoredMap | undefined>;
}
