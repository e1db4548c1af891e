/**
 * Reads the stack text browsers put in `Error.stack` into frames, top
 * first. Two shapes cover the browsers in use:
 *   Chromium (V8):     "    at fn (https://h/app.js:1:2)", "    at https://h/app.js:1:2",
 *                      "    at async fn (…)", "    at new Cls (…)", "    at fn (eval at …, <anonymous>:1:2)"
 *   Firefox, Safari:   "fn@https://h/app.js:1:2", "@https://h/app.js:1:2", "fn@[native code]"
 * Lines of neither shape (the "TypeError: x" head V8 writes first) are
 * skipped. Pure: the fingerprint rule (lambda/ingest/grouping/fingerprint.ts), the source-map resolver (lambda/ingest/sourcemaps) and their tests use it.
 */

import { trimEndOf, withoutQueryOrFragment } from '../../kernel/text-ends';

export interface StackFrame {
  /**
   * The function's name: as the browser wrote it from parseStackLocations (`new Cart`, `Object.sum [as total]`,
   * `outer/<`; frame-names.ts reads it as every engine would), as rule version 1 compared it from parseStackFrames
   * (v1FunctionName). Empty for an anonymous function.
   */
  fn: string;
  /** The script's URL (or "<anonymous>", "native", "[native code]"), without line and column. */
  file: string;
}

/** A frame with where in the script it was, 1-based, when the browser wrote it: what a source map resolves (lambda/ingest/sourcemaps). */
export interface LocatedFrame extends StackFrame {
  line?: number;
  column?: number;
  /** V8's frame of code run by eval or new Function (`fn (eval at caller (url:1:2), <anonymous>:1:5)`): its file is the caller's script. */
  evalCode?: true;
}

/** ":line:column" or ":line" at the end of a location. */
const LINE_COLUMN = /(?::\d+){1,2}$/;
/** "at" then the frame; what follows the spaces starts with a non-space, so the two never trade characters (linear time). */
const V8_LINE = /^\s*at\s+(\S.*)$/;
/** A run of spaces then "(": found from the run's start only, so each run is read once. */
const SPACES_THEN_PAREN = /(?<!\s)\s+\(/;
/** An "@" that starts a URL: `@https://`. */
const AT_SCHEME = /@[a-z][a-z0-9+.-]*:\/\//i;
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/**
 * V8's `fn (location)`: the name up to the first spaces followed by "(",
 * the location the rest inside the parentheses that close the line. Split by
 * hand: the pattern that said it (`^(.*?)\s+\((.*)\)$`) took quadratic time
 * on a line of many " (" that does not end in ")".
 */
function v8Named(rest: string): { name: string; location: string } | undefined {
  if (!rest.endsWith(')')) return undefined;
  const open = SPACES_THEN_PAREN.exec(rest);
  if (!open || open.index === 0) return undefined;
  return { name: rest.slice(0, open.index), location: rest.slice(open.index + open[0].length, -1) };
}

/**
 * Gecko and JavaScriptCore: `name@location`. The name may itself hold "@" (a
 * rare eval name), the location never does before "://": split at the first
 * "@" that starts a URL, else at the last "@". By hand: the one pattern that
 * said it was quadratic in the "@"s of a line.
 */
function atSignParts(line: string): { name: string; location: string } | undefined {
  const text = line.trimStart();
  const url = AT_SCHEME.exec(text);
  const at = url ? url.index : text.lastIndexOf('@');
  if (at === -1) return undefined;
  const location = text.slice(at + 1);
  if (location === '' || LINE_BREAK.test(location)) return undefined;
  return { name: text.slice(0, at), location };
}

/** The location without its line and column. */
const withoutLineColumn = (location: string): string => location.trim().replace(LINE_COLUMN, '');

/** The line and column at the end of a location, when both are there. */
function lineColumnOf(location: string): Pick<LocatedFrame, 'line' | 'column'> {
  const found = /:(\d+):(\d+)$/.exec(location.trim());
  return found ? { line: Number(found[1]), column: Number(found[2]) } : {};
}

/** V8 writes "fn (eval at outer (https://h/a.js:1:2), <anonymous>:1:2)": the script that called eval is the file. */
function v8Location(location: string): string {
  const evalAt = /^eval at [^(]*\((.*?)\)/.exec(location);
  return withoutLineColumn(evalAt ? (evalAt[1] as string) : location);
}

/**
 * A function's name as frames are compared: without the marks Firefox adds to nested anonymous functions ("outer/<",
 * "fn/</<") and Safari's "global code" for the top level. Applied to every name, whatever the line's shape: a Sentry
 * SDK sends the name as Firefox wrote it, and its stack text is written in V8's shape (lambda/ingest/sentry/event-map.ts),
 * so one bug groups alike whichever SDK sent it. No V8, Python, Go or Java name ends in "/" or "<".
 */
export const comparableFunctionName = (name: string): string => trimEndOf(name, '/<').replace(/^global code$/, '');

/** A name as rule version 1 compared it (frozen: every issue opened before version 3 has its id from it): V8's `new ` and `async ` left out, then comparableFunctionName. */
export const v1FunctionName = (name: string): string => comparableFunctionName(name.replace(/^(async|new)\s+/, '').trim());

function v8Frame(rest: string): LocatedFrame {
  const named = v8Named(rest);
  if (!named) return { fn: '', file: v8Location(rest), ...lineColumnOf(rest) };
  const fn = named.name.trim();
  const { location } = named;
  // In an eval frame the position is in the eval'd code, not in the file: none kept.
  if (/^eval at /.test(location)) return { fn, file: v8Location(location), evalCode: true };
  return { fn, file: v8Location(location), ...lineColumnOf(location) };
}

const atSignFrame = (name: string, location: string): LocatedFrame => ({ fn: name, file: withoutLineColumn(location), ...lineColumnOf(location) });

/** The frames of a stack text, top (where it was thrown) first, their names as rule version 1 compared them. */
export const parseStackFrames = (stack: string): StackFrame[] => parseStackLocations(stack).map(({ fn, file }) => ({ fn: v1FunctionName(fn), file }));

/** The frames of a stack text with their line and column, top first, each name as the engine wrote it. */
export function parseStackLocations(stack: string): LocatedFrame[] {
  const frames: LocatedFrame[] = [];
  for (const line of stack.split('\n')) {
    const v8 = V8_LINE.exec(line);
    if (v8) {
      frames.push(v8Frame((v8[1] as string).trim()));
      continue;
    }
    const atSign = atSignParts(line);
    if (atSign && /[:/]|\[native code\]/.test(atSign.location)) frames.push(atSignFrame(atSign.name.trim(), atSign.location));
  }
  return frames;
}

/** Schemes of the scripts browser extensions inject into pages (the browser SDK's are held equal by test/rules/sdk-server-rules.test.ts). */
const EXTENSION_SCHEMES = /^(chrome-extension|moz-extension|safari-extension|safari-web-extension|ms-browser-extension):/i;

export const isExtensionFrame = (frame: StackFrame): boolean => EXTENSION_SCHEMES.test(frame.file);

/** A frame of the site's own scripts: a URL of the page's world, not the engine, eval glue or an extension. */
export function isInAppFrame(frame: StackFrame): boolean {
  if (isExtensionFrame(frame)) return false;
  return /^(https?|file|blob|webpack|app):/i.test(frame.file);
}

/**
 * A token between dots or dashes of a file name that a bundler or a deploy
 * added for cache busting: hex of 8 or more (app-3F9A1C2B.js, even
 * app.deadbeef.js), hex of 6 or 7 with a digit (app.3f9a1c.js), or 8 or
 * more letters and digits with a digit or a capital after a small letter
 * (index-BxK3aZ9q.js).
 */
function isHashToken(token: string): boolean {
  if (/^[0-9a-f]{8,}$/i.test(token)) return true;
  if (/^[0-9a-f]{6,7}$/i.test(token) && /\d/.test(token)) return true;
  return /^[A-Za-z0-9_]{8,}$/.test(token) && (/\d/.test(token) || /[a-z][A-Z]/.test(token));
}

/** A path segment that is a build id (/_next/static/3f9a1c2b7e/…, /assets/v2024.11.3/…). */
const isVersionSegment = (segment: string): boolean => isHashToken(segment) || /^v?\d+(\.\d+)+$/.test(segment);

/**
 * The file of a frame as the fingerprint keeps it: the path only (a site
 * served from another CDN host stays one issue), with the query, fragment,
 * cache-busting hashes in file names and build-id directories removed.
 * "https://cdn.h/assets/app.3f9a1c.js?v=12" and "https://h/assets/app-77aa00bb.js"
 * both become "/assets/app.js".
 */
export function normalizeFile(file: string): string {
  const known = normalizedFiles.get(file);
  if (known !== undefined) return known;
  const normalized = normalizeFileOnce(file);
  if (file.length <= REMEMBERED_FILE_LENGTH) {
    if (normalizedFiles.size >= REMEMBERED_FILES) normalizedFiles.clear();
    normalizedFiles.set(file, normalized);
  }
  return normalized;
}

/**
 * normalizeFile's recent answers. Each rule version reads an event's frames again (version 1, then version 3 as sent
 * and resolved), at ingest and again in the tally, and a stack's frames mostly share one or two scripts: the typical
 * 5-frame error asks for one file 10 times an analysis, and analyseGrouping took 27 µs on it without these answers,
 * 13.5 with them (Node.js 20, quiet machine). Bounded in entries and in the length of a file kept, so that what a
 * sender names cannot grow it.
 */
const normalizedFiles = new Map<string, string>();
const REMEMBERED_FILES = 256;
const REMEMBERED_FILE_LENGTH = 512;

function normalizeFileOnce(file: string): string {
  let path = withoutQueryOrFragment(file);
  const url = /^[a-z][a-z0-9+.-]*:\/\/[^/]*(\/.*)?$/i.exec(path);
  if (url) path = url[1] ?? '/';
  const segments = path.split('/');
  const base = segments.pop() ?? '';
  const dirs = segments.filter((segment) => !isVersionSegment(segment));
  // "app.3f9a1c.chunk.js" → "app.chunk.js"; the first token (the name) and the last (the extension) are kept.
  const parts = base.split(/(?=[.-])/);
  const kept = parts.filter((part, index) => index === 0 || index === parts.length - 1 || !isHashToken(part.slice(1)));
  const last = kept[kept.length - 1];
  if (kept.length > 1 && last !== undefined && isHashToken(last.slice(1)) && /^-/.test(last)) kept.pop();
  return [...dirs, kept.join('')].join('/');
}
