import { normalizeFile, type LocatedFrame } from './stack-frames';

/**
 * One name per frame whatever engine wrote the stack (docs/report-issues.md#one-name-per-frame): Chromium, Firefox and
 * WebKit write the same function differently (`new Cart` / `Cart`, `Object.sum [as total]` / `sum`, `get size` /
 * `size`, `outer/<` for an anonymous function inside `outer`, `async*checkout`), and add frames the others lack
 * (eval'd code, async continuations). The table of real stacks these rules are held to was captured in each engine
 * (test/lambda/ingest/grouping/engine-stacks.json, tools/browsers/capture-stacks.ts). Pure; grouping rule version 3.
 */

/** Prefix marks read off one name at most. */
const MAX_MARKS = 3;

/** V8's ` [as alias]` at the end of a name, found from the end (no regular expression to backtrack over a stranger's text). */
function withoutAlias(name: string): string {
  if (!name.endsWith(']')) return name;
  const at = name.lastIndexOf('[as ');
  return at < 0 || name.indexOf(']', at) !== name.length - 1 ? name : name.slice(0, at).trimEnd();
}

/** Names that stand for no function: engine glue, top-level code, anonymous functions. */
const NO_NAME = new Set(['', '?', '<anonymous>', 'Object.<anonymous>', 'global code', 'eval code', 'module code']);

/**
 * A JavaScript function's name as the fingerprint keeps it: without V8's `[as alias]`, the `new `, `async `,
 * `async*`, `get ` and `set ` marks, and the receiver or owner V8 and Firefox put before a dot (`Cart.total`,
 * `x.CartTotal`: `total`, `CartTotal`); Firefox's `outer/<` (an anonymous function inside `outer`) is anonymous, as
 * the other engines write it. WebKit names no function assigned to a property (`x.f = function () {}`), which the
 * other two call `x.f`: that frame alone still differs in Safari's stacks unless a map resolves it.
 */
export function jsFunctionName(raw: string): string {
  let name = withoutAlias(raw.trim());
  // A few marks at most (`async new`, `setTimeout handler*`): bounded, so a hostile name costs linear time.
  for (let marks = 0; marks < MAX_MARKS; marks++) {
    const next = name.replace(/^(?:[^*@/<]*\*|async\s+|new\s+|get\s+|set\s+)/, '');
    if (next === name) break;
    name = next;
  }
  if (NO_NAME.has(name) || name.endsWith('<')) return '';
  const owned = name.slice(name.lastIndexOf('/') + 1);
  const last = owned.slice(owned.lastIndexOf('.') + 1);
  return NO_NAME.has(last) ? '' : last;
}

/** Firefox's location of code run by eval or new Function: `https://h/app.js line 20 > eval`. */
const FIREFOX_EVAL = / line \d+ > (?:eval|Function)$/;

/** A frame that is no function of a script: eval'd code, and the engine's own (`[native code]`, `<anonymous>`, `native`). */
export function isGlueFrame(frame: Pick<LocatedFrame, 'file' | 'evalCode'>): boolean {
  if (frame.evalCode || FIREFOX_EVAL.test(frame.file)) return true;
  return !/[/:]/.test(frame.file) || frame.file === '[native code]';
}

/**
 * An async continuation as V8 (`at async fn`) and Firefox mark it (`async*fn@`, and for what a timer, a promise or a
 * listener ran, the cause before a `*`: `setTimeout handler*checkout@`); WebKit writes none.
 */
const isAsyncMark = (name: string): boolean => /^(?:async\s|[^*@/<]*\*)/.test(name.trim());

/**
 * The frames every engine writes for a stack, top first: eval'd code and engine glue left out, and the async
 * continuation (from its first marked frame down), which WebKit does not keep.
 */
export function comparableFrames<T extends LocatedFrame>(frames: readonly T[]): T[] {
  return beforeAsync(frames).filter((frame) => !isGlueFrame(frame));
}

/** The frames above the async continuation (any SDK's: a Sentry SDK sends Firefox's names as written). */
export function beforeAsync<T extends { fn: string }>(frames: readonly T[]): T[] {
  const asyncAt = frames.findIndex((frame) => isAsyncMark(frame.fn));
  return asyncAt < 0 ? [...frames] : frames.slice(0, asyncAt);
}

/** An unresolved browser frame's part of the fingerprint: its name as every engine would write it, and its script's path without hashes. */
export const browserFramePart = (frame: Pick<LocatedFrame, 'fn' | 'file'>): string => `${jsFunctionName(frame.fn) || '?'}@${normalizeFile(frame.file)}`;

/**
 * Parts without a part repeated next to itself: recursion, and WebKit's second frame for an async function it
 * entered (`captureAll@…:29` then `captureAll@…:27`), count once.
 */
export const withoutRepeats = (parts: readonly string[]): string[] => parts.filter((part, index) => index === 0 || part !== parts[index - 1]);
