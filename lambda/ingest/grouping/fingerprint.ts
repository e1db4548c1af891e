import { sha256Hex } from '../../kernel/hash';
import type { FilterReason, SdkFrame } from '../issues/stored-event';
import type { ResolvedFrame } from '../issues/resolved-frames';
import { normalizeMessage } from './normalize-message';
import { withoutGeneratedParts } from './generated-names';
import {
  comparableFunctionName,
  isExtensionFrame,
  isInAppFrame,
  normalizeFile,
  parseStackFrames,
  parseStackLocations,
  v1FunctionName,
  type LocatedFrame,
} from './stack-frames';
import { appFrameFlags, isServerFrame } from './app-frames';
import { beforeAsync, browserFramePart, comparableFrames, isGlueFrame, jsFunctionName, withoutRepeats } from './frame-names';
import { withoutQueryOrFragment } from '../../kernel/text-ends';

/**
 * The grouping rule of the ingest API (docs/report-issues.md): which issue
 * an event belongs to, or why it belongs to none. Pure: no I/O, no clock.
 *
 *   1. The event's own `fingerprint` (1–10 strings) wins as sent.
 *   2. Cross-origin "Script error." (the browser hid everything) and events
 *      whose every frame is a browser extension's: filtered, no issue.
 *   3. With frames (version 3): the exception type and the top IN_APP_FRAMES
 *      of the app's own frames (app-frames.ts; all frames when none is the
 *      app's), each named as every engine names it (frame-names.ts): a
 *      browser frame "function@file" (file without hashes), a server frame
 *      "function@module" (or its last folder and file), a frame a map
 *      resolved its source line at its source; never a line or column.
 *   4. Without any frame: the exception type and the message with its
 *      variable parts replaced (normalize-message.ts).
 * Versions 1 and 2 (frames as the old in-app rule picked them, or the message
 * when none was in-app) are kept, frozen, as the keys old issues are found by.
 */

/** What the rule reads of an event: the fields as validated (payloads.ts). */
export interface FingerprintInput {
  type?: string;
  message?: string;
  exception?: { type?: string; value?: string; stack?: string };
  fingerprint?: string[];
  /** Frames as the SDK sent them structured, top first (the Sentry protocol's): grouped on instead of the stack text. */
  sdkFrames?: readonly SdkFrame[];
}

export type Grouping = { grouped: true; fingerprint: string[]; title: string } | { grouped: false; filtered: FilterReason };

/** Frames from the top that decide the group: deeper ones differ by caller, not by bug. */
export const IN_APP_FRAMES = 5;
const TITLE_MAX = 200;

/**
 * What browsers report for an error in a script of another origin loaded without CORS: nothing else is
 * known. The browser SDK drops the same texts (test/rules/sdk-server-rules.test.ts holds them equal).
 */
const SCRIPT_ERROR = /^(uncaught )?script error\.?$/i;

/** "TypeError: x is undefined" → "TypeError", for events that send only a message. */
function typeOfMessage(message: string | undefined): string | undefined {
  return message === undefined ? undefined : /^([A-Z][A-Za-z0-9_$]*(?:Error|Exception))\b:/.exec(message.trim())?.[1];
}

/** The exception's value, or the message without a leading "Type: " already named by the type. */
function exceptionValueOf(event: FingerprintInput, type: string | undefined): string {
  const text = event.exception?.value ?? event.message ?? '';
  const head = type === undefined ? '' : `${type}: `;
  return text.startsWith(head) ? text.slice(head.length) : text;
}

/** The title an issue is shown with: type and message as first seen, one line. */
export function titleOf(event: FingerprintInput): string {
  const type = event.exception?.type ?? typeOfMessage(event.message);
  const value = exceptionValueOf(event, type).split('\n')[0]?.trim() ?? '';
  const title = type === undefined ? value : value === '' ? type : `${type}: ${value}`;
  return (title === '' ? '(no message)' : title).slice(0, TITLE_MAX);
}

/** Rule version 1, frames as sent (frozen: the ids of the issues opened before version 3 come from it). */
function groupEventV1(event: FingerprintInput): Grouping {
  if (event.fingerprint !== undefined && event.fingerprint.length > 0) {
    return { grouped: true, fingerprint: ['custom', ...event.fingerprint], title: titleOf(event) };
  }
  const type = event.exception?.type ?? typeOfMessage(event.message);
  if (event.sdkFrames !== undefined && event.sdkFrames.length > 0) return groupOnFrames(event, event.sdkFrames, type);
  const frames = parseStackFrames(event.exception?.stack ?? '');
  const value = exceptionValueOf(event, type).trim();
  if (frames.length === 0 && SCRIPT_ERROR.test(value || (event.message ?? '').trim())) return { grouped: false, filtered: 'script-error' };
  if (frames.length > 0 && frames.every(isExtensionFrame)) return { grouped: false, filtered: 'browser-extension' };

  const kind = event.type ?? 'error';
  const inApp = frames.filter(isInAppFrame).slice(0, IN_APP_FRAMES);
  if (inApp.length > 0) {
    const fingerprint = [kind, type ?? '', ...inApp.map((frame) => `${frame.fn || '?'}@${normalizeFile(frame.file)}`)];
    return { grouped: true, fingerprint, title: titleOf(event) };
  }
  return { grouped: true, fingerprint: [kind, type ?? '', normalizeMessage(value)], title: titleOf(event) };
}

/**
 * A structured frame as the fingerprint keeps it: function (a browser's as the stack text gives it) and module (Go's
 * package, Java's class, Python's module; a generated class's made-up suffix left out), or the normalized file when
 * the SDK names no module; no line.
 */
const frameKey = (frame: SdkFrame): string =>
  `${comparableFunctionName(frame.function ?? '') || '?'}@${frame.module ? withoutGeneratedParts(frame.module) : normalizeFile(frame.file ?? '')}`;

/** Step 3 for structured frames: in_app as the SDK marked it; none marked, the message rule (step 4). */
function groupOnFrames(event: FingerprintInput, frames: readonly SdkFrame[], type: string | undefined): Grouping {
  const value = exceptionValueOf(event, type).trim();
  if (frames.every((frame) => isExtensionFrame({ fn: '', file: frame.file ?? '' }))) return { grouped: false, filtered: 'browser-extension' };
  const kind = event.type ?? 'error';
  const inApp = frames.filter((frame) => frame.inApp === true).slice(0, IN_APP_FRAMES);
  const fingerprint = inApp.length > 0 ? [kind, type ?? '', ...inApp.map(frameKey)] : [kind, type ?? '', normalizeMessage(value)];
  return { grouped: true, fingerprint, title: titleOf(event) };
}

/** The fingerprint as one short string: the input of the issue id (only the id is stored; an issue keeps its fingerprint as the list itself). */
export const fingerprintHash = (fingerprint: readonly string[]): string => sha256Hex(JSON.stringify(fingerprint)).slice(0, 32);

/** `iss_` + 20 hex (ISSUE_ID_PATTERN, lambda/ingest/issues/issue.ts), the same for the same factory and fingerprint on every container and every retry. */
export const issueIdOf = (factoryId: string, fingerprint: readonly string[]): string =>
  `iss_${sha256Hex(`${factoryId}\n${fingerprintHash(fingerprint)}`).slice(0, 20)}`;

/**
 * The grouping rules' versions (docs/source-maps.md#grouping-on-original-frames), newest first. Every event is
 * hashed by each that applies to it, and an issue keeps every hash it was ever found by (issue aliases, the
 * tally's lambda/ingest/tally/issue-of-event.ts), so neither a new version nor a map that arrives after an issue's first
 * events splits it:
 *   2  resolved frames: each in-app frame that a map resolved as its source line (whitespace collapsed, 120
 *      characters; the function's original name when the map has no sources), and its original source file,
 *      never its line or column, so two builds whose minifier named things differently hash alike;
 *   1  frames as sent (groupEvent above): the rule every issue opened before maps has its id from. Kept as is;
 *      an event with structured frames (sdkFrames, only the Sentry protocol's: no issue before them) is hashed
 *      on those at this version. Version 2 reads the resolved frames of the stack text, which the Sentry
 *      reader writes from the same frames, so an event resolves and groups alike whichever SDK sent it.
 */
export const GROUPING_RULE_VERSIONS = [3, 2, 1] as const;

/** A map's source name as the fingerprint keeps it: the bundler's prefixes and leading ../ removed. */
export function normalizeSource(source: string): string {
  return withoutQueryOrFragment(source)
    .replace(/^webpack:\/\/[^/]*\//, '')
    .replace(/^[a-z][a-z0-9+.-]*:\/\/\/?/i, '')
    .replace(/^(\.{1,2}\/)+/, '');
}

/** One frame's part of the version 2 fingerprint. */
function resolvedPart(frame: ResolvedFrame): string {
  const { original } = frame;
  if (!original) return `${v1FunctionName(frame.fn) || '?'}@${normalizeFile(frame.file)}`;
  return originalPart(original);
}

/** A resolved frame's part (versions 2 and 3): its source line, or its original name, at its source file. */
const originalPart = (original: NonNullable<ResolvedFrame['original']>): string =>
  `${original.contextLine || original.fn || '?'}@${normalizeSource(original.source)}`;

/** Rule version 2's fingerprint (frozen), when a map resolved one of the top in-app frames as version 1 picked them. */
function resolvedV2(event: GroupingInput, type: string | undefined): string[] | undefined {
  const inApp = (event.frames ?? []).filter(isInAppFrame).slice(0, IN_APP_FRAMES);
  if (!inApp.some((frame) => frame.original !== undefined)) return undefined;
  return [`resolved:2`, event.type ?? 'error', type ?? '', ...inApp.map(resolvedPart)];
}

/** What the rules read of an event: the fields as validated, and its frames as the maps resolved them at ingest. */
export type GroupingInput = FingerprintInput & { frames?: readonly ResolvedFrame[] };

/** One frame as rule version 3 reads it, top first. */
interface GroupingFrame {
  fn: string;
  file?: string;
  module?: string;
  inApp?: boolean;
  original?: ResolvedFrame['original'];
}

/**
 * The event's frames, top first: a Sentry SDK's structured frames (with what the map resolved of the stack text the
 * Sentry reader wrote from them, frame by frame), else the stack text's as resolved at ingest, else as sent;
 * without eval'd code, engine glue and async continuations (frame-names.ts).
 */
function groupingFrames(event: GroupingInput): GroupingFrame[] {
  const { sdkFrames } = event;
  if (sdkFrames !== undefined && sdkFrames.length > 0) {
    const frames = sdkFrames.map((frame, index): GroupingFrame => {
      const located = event.frames?.[index];
      const aligned = located !== undefined && located.file === (frame.file ?? frame.module ?? '?');
      return {
        fn: frame.function ?? '',
        ...(frame.file === undefined ? {} : { file: frame.file }),
        ...(frame.module === undefined ? {} : { module: frame.module }),
        ...(frame.inApp === undefined ? {} : { inApp: frame.inApp }),
        ...(aligned && located.original ? { original: located.original } : {}),
      };
    });
    // A browser's frames as every engine writes them (the async continuation and glue left out); a server's as sent.
    return beforeAsync(frames).filter((frame) => isServerFrame(frame) || !isGlueFrame({ file: frame.file ?? '' }));
  }
  // The stack text as sent (V8's eval marks are read from it), each frame with what its map resolved at ingest.
  const located = parseStackLocations(event.exception?.stack ?? '').map((frame, index) => {
    const resolved = event.frames?.[index];
    return resolved?.original && resolved.file === frame.file && resolved.line === frame.line ? { ...frame, original: resolved.original } : frame;
  });
  return comparableFrames<LocatedFrame & Pick<ResolvedFrame, 'original'>>(located).map((frame) => ({
    fn: frame.fn,
    file: frame.file,
    ...(frame.original ? { original: frame.original } : {}),
  }));
}

/** A server file as the fingerprint keeps it (when its SDK names no module): the last folder and the file, without release and build folders. */
export function serverFile(file: string): string {
  const segments = file.split(/[/\\]/).filter((segment) => segment !== '' && !/^(v?\d+([._-]\d+)*|[0-9a-f]{8,})$/i.test(segment));
  return segments.slice(-2).join('/');
}

/** A structured frame's function as version 3 keeps it: a JavaScript file's as every engine would name it (frame-names.ts), others as sent. */
const serverFunction = (frame: GroupingFrame): string =>
  /\.(m|c)?[jt]sx?$/.test(frame.file ?? '') ? jsFunctionName(frame.fn) : comparableFunctionName(frame.fn);

/** One frame's part of the version 3 fingerprint; `resolved`: read through its map when one resolved it. */
function framePart(frame: GroupingFrame, resolved: boolean): string {
  if (resolved && frame.original) return originalPart(frame.original);
  if (isServerFrame(frame)) {
    const where = frame.module ? withoutGeneratedParts(frame.module) : serverFile(frame.file ?? '');
    return `${serverFunction(frame) || '?'}@${where}`;
  }
  return browserFramePart({ fn: frame.fn, file: frame.file ?? '' });
}

/**
 * Rule version 3 on the event's frames (groupingFrames, read once per event): the app's own (app-frames.ts; every
 * frame when none is), the top IN_APP_FRAMES of them, each named as every engine names it. `resolved`: frames a map
 * resolved count as their original (and the map's verdict on packages and ignored sources applies); otherwise every
 * frame counts as sent. Undefined when the event has no frame at all (the message decides then), or, `resolved`,
 * when no map resolved one of the frames that count.
 */
function appFramesFingerprint(frames: readonly GroupingFrame[], kind: string, type: string | undefined, resolved: boolean): string[] | undefined {
  if (frames.length === 0) return undefined;
  const flags = appFrameFlags(resolved ? frames : frames.map(({ original: _original, ...frame }) => frame));
  const app = frames.filter((_frame, index) => flags[index]);
  const top = (app.length > 0 ? app : frames).slice(0, IN_APP_FRAMES * 2);
  const anyResolved = resolved && top.slice(0, IN_APP_FRAMES).some((frame) => frame.original !== undefined);
  if (resolved && !anyResolved) return undefined;
  const parts = withoutRepeats(top.map((frame) => framePart(frame, resolved))).slice(0, IN_APP_FRAMES);
  return [...(anyResolved ? ['resolved:2'] : []), kind, type ?? '', ...parts];
}

/** Everything the rules say of an event, each stack read once: the current rule's grouping as sent, and its candidates. */
export interface GroupingAnalysis {
  /** The current rule (version 3) on the frames as sent: the event's own fingerprint, or filtered, or the app's frames, or the message. */
  grouping: Grouping;
  /**
   * The fingerprints it is grouped by (docs/report-issues.md#grouping-versions), in the order they decide: `current`,
   * the rule in force (on the resolved frames when a map resolved one of the app's top frames, then on the frames
   * as sent, which links a build's minified events to its resolved ones), whose hashes the tally ties to the
   * event's issue; `legacy`, the older versions' (2, then 1), looked up only, so that an issue they opened keeps its
   * id and its events. Both empty for a filtered event; an event's own `fingerprint` is its only one.
   */
  current: string[][];
  legacy: string[][];
}

export function analyseGrouping(event: GroupingInput): GroupingAnalysis {
  const v1 = groupEventV1(event);
  if (!v1.grouped) return { grouping: v1, current: [], legacy: [] };
  if (event.fingerprint !== undefined && event.fingerprint.length > 0) return { grouping: v1, current: [v1.fingerprint], legacy: [] };
  const type = event.exception?.type ?? typeOfMessage(event.message);
  const kind = event.type ?? 'error';
  const frames = groupingFrames(event);
  const asSent = appFramesFingerprint(frames, kind, type, false) ?? [kind, type ?? '', normalizeMessage(exceptionValueOf(event, type).trim())];
  const current = distinct([appFramesFingerprint(frames, kind, type, true), asSent]);
  const legacy = distinct([resolvedV2(event, type), v1.fingerprint]).filter((fingerprint) => !current.some((kept) => sameFingerprint(kept, fingerprint)));
  return { grouping: { grouped: true, fingerprint: asSent, title: v1.title }, current, legacy };
}

/** The current rule (version 3) on the frames as sent (analyseGrouping). */
export const groupEvent = (event: GroupingInput): Grouping => analyseGrouping(event).grouping;

/** The event's candidates, current rule first, then the older ones' (analyseGrouping). */
export function groupingKeys(event: GroupingInput): { current: string[][]; legacy: string[][] } {
  const { current, legacy } = analyseGrouping(event);
  return { current, legacy };
}

const sameFingerprint = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((part, index) => part === b[index]);

function distinct(list: readonly (string[] | undefined)[]): string[][] {
  const kept: string[][] = [];
  for (const fingerprint of list) if (fingerprint && !kept.some((other) => sameFingerprint(other, fingerprint))) kept.push(fingerprint);
  return kept;
}

/** Every fingerprint of the event, current rule first (groupingKeys). Empty for an event filtered out. */
export function groupingCandidates(event: GroupingInput): string[][] {
  const { current, legacy } = groupingKeys(event);
  return [...current, ...legacy];
}
