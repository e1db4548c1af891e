import { AnyMap, TraceMap } from '@jridgewell/trace-mapping';
import type { StoredMap } from './ports';

/**
 * A stored map's text read into a TraceMap (@jridgewell/trace-mapping, docs/source-maps.md#the-resolver), with
 * the heap it will hold once its first lookup has decoded the mappings. The library parses lazily: the
 * constructor only reads the JSON; the first lookup decodes and sorts every segment, after which a 6 MB map holds
 * about 95 MB of heap (bench/source-maps.md). So the estimate is made before that, from the `mappings` text: a map
 * whose estimate exceeds the cache's bound is refused without ever being decoded.
 */

/**
 * Heap bytes per byte of `mappings` once decoded, rounded up over the maps measured: 16.4 to 17.5 held per byte
 * (bundles of 1 to 554 sources, 0.4 to 5.6 MB of `mappings`; 97.7 MB held for a 6.0 MB map, bench/source-maps.md).
 * 16, taken from a one-file map alone, fell 2 to 8 % short of multi-source maps: the cache held more than its bound.
 */
export const PARSED_BYTES_PER_MAPPING_BYTE = 18;
/** Heap bytes per line of the generated file (each `;` becomes an array): what makes `;;;;…` costly. */
export const PARSED_BYTES_PER_LINE = 48;
/** Heap bytes per byte of the rest (names, sources, sourcesContent as UTF-16 strings). */
export const PARSED_BYTES_PER_OTHER_BYTE = 2;

export type ParsedMap = { ok: true; map: TraceMap; parsedBytes: number } | { ok: false; problem: 'broken' | 'refused'; detail: string };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The heap a map will hold after its first lookup, estimated from its text. */
export function estimateParsedBytes(mappings: string, totalBytes: number): number {
  let lines = 0;
  for (let index = mappings.indexOf(';'); index !== -1; index = mappings.indexOf(';', index + 1)) lines += 1;
  return (
    mappings.length * PARSED_BYTES_PER_MAPPING_BYTE + lines * PARSED_BYTES_PER_LINE + Math.max(0, totalBytes - mappings.length) * PARSED_BYTES_PER_OTHER_BYTE
  );
}

/** Every section's `mappings` of an index map (`sections`), or the map's own. */
function mappingsOf(json: Record<string, unknown>): string | undefined {
  if (typeof json.mappings === 'string') return json.mappings;
  if (!Array.isArray(json.sections)) return undefined;
  let all = '';
  for (const section of json.sections) {
    if (!isObject(section) || !isObject(section.map) || typeof section.map.mappings !== 'string') return undefined;
    all += section.map.mappings;
  }
  return all;
}

/** The map, or why it cannot be used: `broken` (not a version 3 source map), `refused` (over `maxParsedBytes` once parsed). */
export function parseStoredMap(stored: StoredMap, maxParsedBytes: number): ParsedMap {
  let json: unknown;
  try {
    json = JSON.parse(stored.text);
  } catch {
    return { ok: false, problem: 'broken', detail: 'not JSON' };
  }
  if (!isObject(json) || json.version !== 3) return { ok: false, problem: 'broken', detail: 'not a version 3 source map' };
  const mappings = mappingsOf(json);
  if (mappings === undefined) return { ok: false, problem: 'broken', detail: 'no mappings' };
  if (json.sections === undefined && !Array.isArray(json.sources)) return { ok: false, problem: 'broken', detail: 'no sources' };
  const parsedBytes = estimateParsedBytes(mappings, stored.bytes);
  if (parsedBytes > maxParsedBytes) return { ok: false, problem: 'refused', detail: `about ${Math.ceil(parsedBytes / 1e6)} MB once parsed` };
  try {
    // The JSON object, not the text: parsed once. Index maps are flattened (AnyMap).
    const map = json.sections === undefined ? new TraceMap(json as never) : new AnyMap(json as never);
    return { ok: true, map, parsedBytes };
  } catch {
    return { ok: false, problem: 'broken', detail: 'the library refused it' };
  }
}
