import { sha256Hex } from '../../kernel/hash';
import type { FilterReason, SdkFrame } from '../issues/stored-event';
import type { ResolvedFrame } from '../issues/resolved-frames';
import { normalizeMessage } from './normalize-message';
import { withoutGeneratedParts } from './generated-names';
import { comparableFunctionName, isExtensionFrame, isInAppFrame, normalizeFile, parseStackFrames } from './stack-frames';

/**
 * The grouping rule of the ingest API (docs/report-issues.md): which issue
 * an event belongs to, or why it belongs to none. Pure: no I/O, no clock.
 *
 *   1. The event's own `fingerprint` (1–10 strings) wins as sent.
 *   2. Cross-origin "Script error." (the browser hid everything) and events
 *      whose every frame is a browser extension's: filtered, no issue.
 *   3. With in-app frames: the exception type and the top IN_APP_FRAMES
 *      frames, each "function@file" with the file normalized (stack-frames.ts).
 *   4. Otherwise: the exception type and the message with its variable parts
 *      replaced (normalize-message.ts).
 * An event with structured frames (a Sentry SDK's: Python, Node, Go, Java,
 * browsers) groups at step 3 on the frames its SDK marked in_app, each
 * "function@module" (the file, normalized, when the SDK names no module; a
 * Java proxy's generated suffix left out: generated-names.ts), never a line
 * or column: one bug on several hosts, paths or versions is one issue. A
 * browser frame names no module, so it gives the same "function@file" as the
 * stack text of the own SDK.
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

export function groupEvent(event: FingerprintInput): Grouping {
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
export const GROUPING_RULE_VERSIONS = [2, 1] as const;

/** A map's source name as the fingerprint keeps it: the bundler's prefixes and leading ../ removed. */
export function normalizeSource(source: string): string {
  return source
    .replace(/[?#].*$/, '')
    .replace(/^webpack:\/\/[^/]*\//, '')
    .replace(/^[a-z][a-z0-9+.-]*:\/\/\/?/i, '')
    .replace(/^(\.{1,2}\/)+/, '');
}

/** One frame's part of the version 2 fingerprint. */
function resolvedPart(frame: ResolvedFrame): string {
  const { original } = frame;
  if (!original) return `${frame.fn || '?'}@${normalizeFile(frame.file)}`;
  return `${original.contextLine || original.fn || '?'}@${normalizeSource(original.source)}`;
}

/**
 * The fingerprints an event is grouped by, in the order they decide (newest rule first, frames as sent last):
 * version 2 when a map resolved one of the top in-app frames, then version 1. Empty for an event filtered out.
 * An event's own `fingerprint` is its only one.
 */
export function groupingCandidates(event: FingerprintInput & { frames?: readonly ResolvedFrame[] }): string[][] {
  const grouping = groupEvent(event);
  if (!grouping.grouped) return [];
  if (event.fingerprint !== undefined && event.fingerprint.length > 0) return [grouping.fingerprint];
  const inApp = (event.frames ?? []).filter(isInAppFrame).slice(0, IN_APP_FRAMES);
  if (!inApp.some((frame) => frame.original !== undefined)) return [grouping.fingerprint];
  const type = event.exception?.type ?? typeOfMessage(event.message);
  return [[`resolved:${GROUPING_RULE_VERSIONS[0]}`, event.type ?? 'error', type ?? '', ...inApp.map(resolvedPart)], grouping.fingerprint];
}
