/**
 * Debug ids (docs/source-maps.md#debug-ids): a build step writes one id into
 * a script and into its map, so that a frame of that script finds its map
 * whatever URL, release or host served it. The id comes from the script's
 * content, so the same build gives the same ids, and injecting again changes
 * nothing. Node built-ins only: this folder ships in the SDK package's bin.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { builtFiles, locateMap } from './built-files';

const DEBUG_ID_COMMENT = /\/\/# debugId=([0-9a-fA-F-]{36})[ \t]*$/m;

/** A UUID (version 4 layout, lowercase) from the first 16 bytes of the content's sha256. */
export function debugIdOf(content: string): string {
  const bytes = createHash('sha256').update(content).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The debug id a script carries, if any. */
export function debugIdIn(text: string): string | undefined {
  return DEBUG_ID_COMMENT.exec(text)?.[1]?.toLowerCase();
}

export interface InjectOptions {
  /**
   * Code put before the script on a line of its own, which tells the SDK the
   * id at run time (the SDK's registration). The map's mappings then start
   * with one empty line, so every position still maps where it did.
   */
  snippet?: (debugId: string) => string;
}

export interface InjectResult {
  /** Scripts (and their maps) given an id now. */
  injected: number;
  /** Scripts that already had one (their maps completed when they lacked it). */
  unchanged: number;
  /** Scripts without a map of their own on disk: no id, nothing to upload for them. */
  withoutMap: string[];
  files: { path: string; debugId: string; map: string }[];
}

/** The script with the id comment: just before its sourceMappingURL comment (which stays last), or at the end. */
function withComment(text: string, debugId: string): string {
  const comment = `//# debugId=${debugId}`;
  const at = text.search(/\/\/[#@][ \t]+sourceMappingURL=[^\n]*\s*$/);
  if (at >= 0) return `${text.slice(0, at)}${comment}\n${text.slice(at)}`;
  return `${text}${text.endsWith('\n') || text === '' ? '' : '\n'}${comment}\n`;
}

/** The map with the id under both names Sentry's tools and ours read; undefined when it already says so. */
function mapWithId(mapText: string, debugId: string, shiftLines: boolean): string | undefined {
  const map = JSON.parse(mapText) as Record<string, unknown>;
  if (map.debugId === debugId && map.debug_id === debugId && !shiftLines) return undefined;
  map.debugId = debugId;
  map.debug_id = debugId;
  if (shiftLines && typeof map.mappings === 'string') map.mappings = `;${map.mappings}`;
  return JSON.stringify(map);
}

/** Writes a debug id into every script under `dir` that has a map, and into its map. A second run changes nothing. */
export function injectDebugIds(dir: string, options: InjectOptions = {}): InjectResult {
  if (options.snippet?.('00000000-0000-0000-0000-000000000000').includes('\n'))
    throw new Error('the snippet must be one line: the map is shifted by exactly one');
  const result: InjectResult = { injected: 0, unchanged: 0, withoutMap: [], files: [] };
  for (const built of builtFiles(dir)) {
    const text = readFileSync(built.file, 'utf8');
    const { map } = locateMap(built.file, text);
    if (!map) {
      result.withoutMap.push(built.path);
      continue;
    }
    const present = debugIdIn(text);
    const debugId = present ?? debugIdOf(text);
    const mapText = readFileSync(map, 'utf8');
    let updated: string | undefined;
    try {
      updated = mapWithId(mapText, debugId, present === undefined && options.snippet !== undefined);
    } catch (error) {
      throw new Error(`${map} is not a JSON source map (${error instanceof Error ? error.message : String(error)})`);
    }
    if (updated !== undefined) writeFileSync(map, updated);
    if (present === undefined) {
      const script = withComment(text, debugId);
      writeFileSync(built.file, options.snippet ? `${options.snippet(debugId)}\n${script}` : script);
      result.injected++;
    } else {
      result.unchanged++;
    }
    result.files.push({ path: built.path, debugId, map });
  }
  return result;
}
