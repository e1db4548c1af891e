import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { parseStackLocations } from '../../../ingest/grouping/stack-frames';
import type { ResolvedFrame, UnresolvedReason } from '../../../ingest/issues/resolved-frames';
import type { SdkFrame } from '../../../ingest/issues/stored-event';

/**
 * An event's detail as one binary attribute (docs/capacity.md#the-event-item): everything of a stored event that
 * DynamoDB itself never reads, its stack kept once, compressed. What it holds is the event's own JSON with three
 * repetitions taken out, each put back exactly when read:
 *
 *   - the stack text's frame lines: a line that reads as its resolved frame would be written (V8's `    at fn
 *     (file:line:column)`, or Firefox's and Safari's `fn@file:line:column`) is one marker character, rebuilt from
 *     the frame; any other line is kept as sent;
 *   - a Sentry SDK's structured frame whose function, file, line and column are its resolved frame's keeps only
 *     what else it says (module, context line, in_app …) and a mark;
 *   - why a frame was not resolved: a number, not the word.
 *
 * Any other field, and any field a frame gains later, is kept as it is. The JSON is deflated (raw deflate, a
 * small window, with a dictionary of what events usually say), behind one byte that names this layout: a layout
 * once written is read forever, so a change of dictionary, markers or codes is a new layout byte, never an edit
 * of these (test/store/event-items.test.ts pins them).
 */

/** The first byte of the attribute: which layout the rest is. */
const LAYOUT_V1 = 1;

/** Why a frame was not resolved, by code: frozen for layout 1 (a reason added later is appended, never inserted). */
export const REASON_CODES_V1: readonly UnresolvedReason[] = [
  'not-in-app',
  'no-position',
  'no-debug-id',
  'url-mismatch',
  'no-map',
  'outside-map',
  'map-refused',
  'map-broken',
  'map-slow',
  'frame-limit',
];

/**
 * What a 5-frame error usually says, given to deflate as its dictionary: the field names as the JSON writes them
 * and the values browsers and SDKs repeat. Frozen for layout 1.
 */
export const DICTIONARY_V1 = Buffer.from(
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0 (Linux; Android 10; K)',
    '"tags":{"environment":"production","release":"',
    '"sdkFrames":[{"function":"',
    '"module":"',
    '"contextLine":"',
    '"inApp":true,"~":1},{',
    '"frames":[{"fn":"',
    '","file":"https://',
    '","line":',
    ',"column":',
    ',"debugId":"',
    ',"original":{"source":"webpack://',
    ',"unresolved":4},{"fn":"',
    '"debugIds":{"https://',
    '"scrubbed":{"',
    '"reporter":{"',
    '"fingerprint":["',
    '"filtered":"browser-extension',
    '"userAgent":"Mozilla/5.0 (',
    '"keyId":"key_',
    '"origin":"https://',
    '"receivedAt":"20',
    '"visitor":"',
    '"writeToken":"',
    '"issueId":"iss_',
    '"pageUrl":"https://',
    '"timestamp":"20',
    '"type":"error","message":"',
    '"exception":{"type":"TypeError","value":"Cannot read properties of undefined (reading \'',
    '","stack":"TypeError: Cannot read properties of undefined (reading \'',
    'is not a function',
    'is not defined',
    '\\n    at ',
  ].join(''),
);

/** Raw deflate's window: 4 KB holds the dictionary and a typical detail; inflate reads it with the same. */
const WINDOW_BITS = 12;
/**
 * The compressor's effort (not part of the layout: inflate reads any level). Level 1 took about half the CPU of the
 * default 6 for a typical detail and wrote 11 bytes more (328 against 317).
 */
const LEVEL = 1;
const MEMORY_LEVEL = 6;

/** The stack text's line markers (control characters: stored text never holds them, the free-text rule removes them). */
const LINE = {
  /** The next frame, as V8 writes it. */
  v8: '\u0001',
  /** The next frame, as Firefox and Safari write it. */
  atSign: '\u0002',
  /** A frame line kept as sent (the next frame is its own): what follows is the line. */
  frame: '\u0003',
  /** Any other line that happens to begin with one of these characters: what follows is the line. */
  escaped: '\u0004',
} as const;
const MARKED = /^[\u0001-\u0004]/;

const v8Line = (frame: ResolvedFrame): string | undefined =>
  frame.line === undefined || frame.column === undefined
    ? undefined
    : frame.fn === ''
      ? `    at ${frame.file}:${frame.line}:${frame.column}`
      : `    at ${frame.fn} (${frame.file}:${frame.line}:${frame.column})`;
const atSignLine = (frame: ResolvedFrame): string | undefined =>
  frame.line === undefined || frame.column === undefined ? undefined : `${frame.fn}@${frame.file}:${frame.line}:${frame.column}`;

/** The stack text with the lines its frames can write again replaced by markers. */
export function markedStack(stack: string, frames: readonly ResolvedFrame[]): string {
  let next = 0;
  return stack
    .split('\n')
    .map((line) => {
      const frame = frames[next];
      if (frame !== undefined) {
        if (line === v8Line(frame)) {
          next += 1;
          return LINE.v8;
        }
        if (line === atSignLine(frame)) {
          next += 1;
          return LINE.atSign;
        }
      }
      // A frame line written otherwise ("at async fn", an eval) stays, and is still the next frame's.
      if (parseStackLocations(line).length === 1) {
        next += 1;
        return LINE.frame + line;
      }
      return MARKED.test(line) ? LINE.escaped + line : line;
    })
    .join('\n');
}

/** The stack text as it was sent, from its marked form and the frames. */
export function unmarkedStack(marked: string, frames: readonly ResolvedFrame[]): string {
  let next = 0;
  return marked
    .split('\n')
    .map((line) => {
      switch (line[0]) {
        case LINE.v8:
        case LINE.atSign: {
          const frame = frames[next] as ResolvedFrame;
          next += 1;
          return (line[0] === LINE.v8 ? v8Line(frame) : atSignLine(frame)) as string;
        }
        case LINE.frame:
          next += 1;
          return line.slice(1);
        case LINE.escaped:
          return line.slice(1);
        default:
          return line;
      }
    })
    .join('\n');
}

/** A Sentry frame whose place is its resolved frame's: written by the Sentry reader as that frame's stack line. */
const samePlace = (sdk: SdkFrame, frame: ResolvedFrame | undefined): boolean =>
  frame !== undefined &&
  sdk.function === (frame.fn === '' ? undefined : frame.fn) &&
  sdk.file === frame.file &&
  sdk.line === frame.line &&
  sdk.column === frame.column;

/** What is stored of an event's detail (its own fields, the repetitions taken out). */
export type Detail = Record<string, unknown>;

/** The event's fields as the detail keeps them. */
export function compactDetail(event: Record<string, unknown>): Detail {
  const detail: Detail = { ...event };
  const frames = Array.isArray(event.frames) ? (event.frames as ResolvedFrame[]) : undefined;
  if (frames) {
    detail.frames = frames.map((frame) => {
      if (frame.unresolved === undefined) return frame;
      const code = REASON_CODES_V1.indexOf(frame.unresolved);
      return code === -1 ? frame : { ...frame, unresolved: code };
    });
    const exception = event.exception as { stack?: unknown } | undefined;
    if (exception && typeof exception.stack === 'string') detail.exception = { ...exception, stack: markedStack(exception.stack, frames) };
  }
  if (Array.isArray(event.sdkFrames)) {
    detail.sdkFrames = (event.sdkFrames as SdkFrame[]).map((sdk, index) => {
      if (!samePlace(sdk, frames?.[index])) return sdk;
      const { function: _function, file: _file, line: _line, column: _column, ...rest } = sdk;
      return { ...rest, '~': 1 };
    });
  }
  return detail;
}

/** The event's fields from what the detail keeps. */
export function expandedDetail(detail: Detail): Record<string, unknown> {
  const event: Record<string, unknown> = { ...detail };
  const frames = Array.isArray(detail.frames)
    ? (detail.frames as (Omit<ResolvedFrame, 'unresolved'> & { unresolved?: UnresolvedReason | number })[]).map((frame): ResolvedFrame => {
        if (typeof frame.unresolved !== 'number') return frame as ResolvedFrame;
        return { ...frame, unresolved: REASON_CODES_V1[frame.unresolved] as UnresolvedReason };
      })
    : undefined;
  if (frames) {
    event.frames = frames;
    const exception = detail.exception as { stack?: unknown } | undefined;
    if (exception && typeof exception.stack === 'string') event.exception = { ...exception, stack: unmarkedStack(exception.stack, frames) };
  }
  if (Array.isArray(detail.sdkFrames)) {
    event.sdkFrames = (detail.sdkFrames as (SdkFrame & { '~'?: number })[]).map((sdk, index) => {
      if (sdk['~'] !== 1) return sdk;
      const { '~': _mark, ...rest } = sdk;
      const frame = frames?.[index] as ResolvedFrame;
      return {
        ...(frame.fn === '' ? {} : { function: frame.fn }),
        file: frame.file,
        ...(frame.line === undefined ? {} : { line: frame.line }),
        ...(frame.column === undefined ? {} : { column: frame.column }),
        ...rest,
      };
    });
  }
  return event;
}

/** The detail as the attribute's bytes: the layout byte, then the JSON deflated. */
export function encodeDetail(detail: Detail): Buffer {
  const packed = deflateRawSync(JSON.stringify(detail), { level: LEVEL, windowBits: WINDOW_BITS, memLevel: MEMORY_LEVEL, dictionary: DICTIONARY_V1 });
  return Buffer.concat([Buffer.of(LAYOUT_V1), packed]);
}

/** The attribute's bytes as stored (bytes, or base64 as a Lambda stream record carries binary values) back to the detail. */
export function decodeDetail(value: Uint8Array | string): Detail {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'base64') : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (bytes[0] !== LAYOUT_V1) throw new Error(`an event detail of layout ${bytes[0]}, which this code does not know: read it with the code that wrote it`);
  const json = inflateRawSync(bytes.subarray(1), { windowBits: WINDOW_BITS, dictionary: DICTIONARY_V1 }).toString('utf8');
  return JSON.parse(json) as Detail;
}
