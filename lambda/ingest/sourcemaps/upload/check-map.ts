import type { MapRef } from '../ports';
import { withoutQueryOrFragment } from '../../../kernel/text-ends';

/** Why a map is refused, in words the uploader can act on; undefined when it is accepted. */
export type MapRefusal = string | undefined;

const BASE64 = new Int8Array(128).fill(-1);
for (const [index, char] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].entries()) BASE64[char.charCodeAt(0)] = index;
const COMMA = 44;
const SEMICOLON = 59;
/** A decoded value past this is no position any real file has (2^31 - 1, as resolvers store them in 32 bits). */
const MAX_VALUE = 0x7fffffff;

/**
 * Walks `mappings` once, as a resolver would decode it, and says what is wrong
 * with it: a character outside base64 VLQ, a segment of the wrong length, a
 * number that does not fit in 32 bits, or a position that points outside the
 * map (negative, or a source or name index past its list). A map that passes
 * decodes without surprises; nothing is kept.
 */
export function checkMappings(mappings: string, sources: number, names: number): MapRefusal {
  let generatedColumn = 0;
  let source = 0;
  let originalLine = 0;
  let originalColumn = 0;
  let name = 0;
  let fields = 0;
  const field = [0, 0, 0, 0, 0];
  let line = 0;
  const endSegment = (): MapRefusal => {
    if (fields === 0) return undefined;
    if (fields !== 1 && fields !== 4 && fields !== 5) return `mappings: line ${line + 1} has a segment of ${fields} fields (1, 4 or 5 expected)`;
    generatedColumn += field[0] as number;
    if (generatedColumn < 0 || generatedColumn > MAX_VALUE) return `mappings: line ${line + 1} has a column outside the file`;
    if (fields >= 4) {
      source += field[1] as number;
      originalLine += field[2] as number;
      originalColumn += field[3] as number;
      if (source < 0 || source >= sources) return `mappings: line ${line + 1} points at source ${source}, but "sources" has ${sources}`;
      if (originalLine < 0 || originalLine > MAX_VALUE || originalColumn < 0 || originalColumn > MAX_VALUE) {
        return `mappings: line ${line + 1} points at a position outside its source`;
      }
    }
    if (fields === 5) {
      name += field[4] as number;
      if (name < 0 || name >= names) return `mappings: line ${line + 1} points at name ${name}, but "names" has ${names}`;
    }
    fields = 0;
    return undefined;
  };
  let value = 0;
  let shift = 0;
  let inValue = false;
  for (let at = 0; at < mappings.length; at++) {
    const code = mappings.charCodeAt(at);
    if (code === COMMA || code === SEMICOLON) {
      if (inValue) return `mappings: an unfinished number before character ${at}`;
      const wrong = endSegment();
      if (wrong) return wrong;
      if (code === SEMICOLON) {
        line++;
        generatedColumn = 0;
      }
      continue;
    }
    const digit = code < 128 ? (BASE64[code] as number) : -1;
    if (digit < 0) return `mappings: character ${at} (${JSON.stringify(mappings[at])}) is not base64 VLQ`;
    if (shift > 30) return `mappings: a number near character ${at} does not fit in 32 bits`;
    value += (digit & 31) * 2 ** shift;
    shift += 5;
    inValue = true;
    if ((digit & 32) === 0) {
      if (fields === 5) return `mappings: line ${line + 1} has a segment of more than 5 fields`;
      const magnitude = Math.floor(value / 2);
      field[fields++] = value % 2 === 1 ? -magnitude : magnitude;
      value = 0;
      shift = 0;
      inValue = false;
    }
  }
  if (inValue) return 'mappings: it ends inside a number';
  return endSegment();
}

const isStringOrNullList = (value: unknown): value is (string | null)[] =>
  Array.isArray(value) && value.every((item) => item === null || typeof item === 'string');

/** The last segment of a path or URL, without query or fragment. */
export const baseName = (path: string): string => withoutQueryOrFragment(path).split('/').pop() ?? '';

/**
 * Whether an uploaded map's text is a source map (version 3, sane
 * `mappings`, `sources` and `names` as lists of strings) and the one for
 * `ref`: for a debug id, the map's own `debugId` (or `debug_id`) must be that
 * id; for a release path, the map's `file`, when it has one, must name that
 * file. `sources` and `sourcesContent` stay data: nothing here opens a path.
 */
export function checkMap(text: string, ref: MapRef): MapRefusal {
  let map: unknown;
  try {
    map = JSON.parse(text);
  } catch (error) {
    return `the file is not JSON (${error instanceof SyntaxError ? error.message.slice(0, 200) : 'unreadable'})`;
  }
  if (typeof map !== 'object' || map === null || Array.isArray(map)) return 'the file is JSON but not a source map object';
  const fields = map as Record<string, unknown>;
  if (fields.sections !== undefined) return 'index maps ("sections") are not accepted: upload the map of each file';
  if (fields.version !== 3) return `"version" must be 3 (it is ${JSON.stringify(fields.version)?.slice(0, 40) ?? 'missing'})`;
  if (!Array.isArray(fields.sources) || !isStringOrNullList(fields.sources)) return '"sources" must be a list of names (strings)';
  if (fields.sourcesContent !== undefined && !isStringOrNullList(fields.sourcesContent)) return '"sourcesContent" must be a list of strings or nulls';
  if (Array.isArray(fields.sourcesContent) && fields.sourcesContent.length > fields.sources.length) {
    return '"sourcesContent" has more entries than "sources"';
  }
  const names = fields.names ?? [];
  if (!Array.isArray(names) || !names.every((item) => typeof item === 'string')) return '"names" must be a list of strings';
  if (typeof fields.mappings !== 'string') return '"mappings" must be a string';
  const wrong = checkMappings(fields.mappings, fields.sources.length, names.length);
  if (wrong) return wrong;
  if (ref.kind === 'debugId') {
    const own = fields.debugId ?? fields.debug_id;
    if (own === undefined) return `the map carries no debugId, so it cannot be the map of ${ref.debugId}: run inject on the build, then upload`;
    if (typeof own !== 'string' || own.toLowerCase() !== ref.debugId) {
      return `the map's debugId is ${JSON.stringify(own).slice(0, 60)}, not ${ref.debugId}: it belongs to another file (was the build injected twice, or built again after inject?)`;
    }
    return undefined;
  }
  if (typeof fields.file === 'string' && fields.file !== '' && baseName(fields.file) !== baseName(ref.path)) {
    return `the map says it belongs to ${JSON.stringify(baseName(fields.file)).slice(0, 120)} (its "file"), not to ${ref.path}`;
  }
  return undefined;
}
