import { withResolvedFrames } from './event-frames';
import { releasePathOf, whyNotResolved, type ResolvedFrame } from '../issues/resolved-frames';
import type { SdkFrame } from '../issues/stored-event';
import { appFrameFlags, isPageScript, type FrameFacts } from '../grouping/app-frames';
import type { SourceMapLoader } from './map-loader';
import { contextAround } from './resolve-frames';

/**
 * An event's frames as the control room and `reports -- issue` show them (docs/source-maps.md#reading-original-frames):
 * resolved again when shown, so an event stored before its map arrived reads resolved once it has; the original
 * frame first (function, source, line, column, and the source lines around it when the map carries them), the
 * minified frame beside it, and for a frame not resolved, why. Every text here is a stranger's (the stack is the
 * page's, the source names and lines the uploaded map's): the pages escape it like any other field.
 */

/** Source lines shown before and after a frame's line. */
export const CONTEXT_RADIUS = 3;

export interface DisplayFrame {
  function?: string;
  /** A server frame's module (Python's module, Java's class, Go's package), as its SDK sent it. */
  module?: string;
  /** The original source a map resolved a browser frame to, or a server frame's file. */
  source?: string;
  line?: number;
  column?: number;
  /** The source lines around `line`, the first of them numbered `firstLine`: from the map, or as a server SDK sent them. */
  context?: { firstLine: number; lines: string[] };
  /** The app's own code (docs/report-issues.md#the-apps-own-frames): the frames that group; the others are shown dimmed. */
  app: boolean;
  /** A browser frame as the browser wrote it; server frames have none. */
  minified?: { function: string; url: string; line?: number; column?: number; debugId?: string };
  /** Why a browser frame of the site's scripts was not resolved: absent when it was, and for frames that need no map. */
  whyNotResolved?: string;
}

export interface DisplayEvent {
  factoryId: string;
  release?: string;
  debugIds?: Record<string, string>;
  exception?: { stack?: string };
  frames?: ResolvedFrame[];
  /** A Sentry SDK's structured frames, top first (lambda/ingest/sentry/). */
  sdkFrames?: SdkFrame[];
}

/** A server SDK's frame as sent: module, file, line, column, function, and its source lines when the SDK sent them. */
function serverFrame(frame: SdkFrame, app: boolean): DisplayFrame {
  const pre = frame.pre ?? [];
  const context =
    frame.contextLine !== undefined && frame.line !== undefined && frame.line > pre.length
      ? { firstLine: frame.line - pre.length, lines: [...pre, frame.contextLine, ...(frame.post ?? [])] }
      : undefined;
  return {
    ...(frame.function === undefined ? {} : { function: frame.function }),
    ...(frame.module === undefined ? {} : { module: frame.module }),
    ...(frame.file === undefined ? {} : { source: frame.file }),
    ...(frame.line === undefined ? {} : { line: frame.line }),
    ...(frame.column === undefined ? {} : { column: frame.column }),
    ...(context ? { context } : {}),
    app,
  };
}

/** A server event (no frame of a page's script): its SDK's frames as sent, no map looked for. */
const isServerEvent = (event: DisplayEvent): event is DisplayEvent & { sdkFrames: SdkFrame[] } =>
  event.sdkFrames !== undefined && event.sdkFrames.length > 0 && !event.sdkFrames.some((frame) => frame.file !== undefined && isPageScript(frame.file));

/** What the app rule reads of a browser frame: its script, what its map said, and the in_app its SDK (a Sentry browser SDK) gave it. */
function browserFacts(frames: readonly ResolvedFrame[], event: DisplayEvent): FrameFacts[] {
  return frames.map((frame, index) => {
    const sent = event.sdkFrames?.[index];
    const inApp = sent !== undefined && sent.file === frame.file ? sent.inApp : undefined;
    return {
      file: frame.file,
      ...(inApp === undefined ? {} : { inApp }),
      ...(frame.original ? { original: { source: frame.original.source, ...(frame.original.ignored ? { ignored: true } : {}) } } : {}),
    };
  });
}

function displayFrame(frame: ResolvedFrame, event: DisplayEvent, app: boolean, context?: DisplayFrame['context']): DisplayFrame {
  const minified = {
    function: frame.fn,
    url: frame.file,
    ...(frame.line === undefined ? {} : { line: frame.line }),
    ...(frame.column === undefined ? {} : { column: frame.column }),
    ...(frame.debugId === undefined ? {} : { debugId: frame.debugId }),
  };
  const { original } = frame;
  // A frame that never needed a map (the engine's, an extension's, eval glue) is shown as written, with no reason.
  if (!original && frame.unresolved === 'not-in-app') return { app, minified };
  if (!original) return { app, minified, whyNotResolved: whyNotResolved(frame, event) ?? 'not resolved' };
  return {
    ...(original.fn === undefined ? {} : { function: original.fn }),
    source: original.source,
    line: original.line,
    column: original.column,
    ...(context ? { context } : {}),
    app,
    minified,
  };
}

/** Browser frames as shown, each with its app verdict. */
function displayFrames(
  frames: readonly ResolvedFrame[],
  event: DisplayEvent,
  contextOfFrame: (frame: ResolvedFrame) => DisplayFrame['context'],
): DisplayFrame[] {
  const app = appFrameFlags(browserFacts(frames, event));
  return frames.map((frame, index) => displayFrame(frame, event, app[index] ?? false, contextOfFrame(frame)));
}

/**
 * The frames to show: resolved now through `loader` when there is one (never waiting past `signal`), else as
 * resolved at ingest. Undefined for an event without a stack.
 */
export async function framesForDisplay(event: DisplayEvent, loader?: SourceMapLoader, signal?: AbortSignal): Promise<DisplayFrame[] | undefined> {
  if (isServerEvent(event)) {
    const app = appFrameFlags(event.sdkFrames);
    return event.sdkFrames.map((frame, index) => serverFrame(frame, app[index] ?? false));
  }
  const stored = (frames: readonly ResolvedFrame[]) => displayFrames(frames, event, () => undefined);
  if (!loader) return event.frames && stored(event.frames);
  const [resolved] = await withResolvedFrames(loader, [{ ...event, factoryId: event.factoryId }], signal);
  const frames = resolved?.frames;
  if (!frames) return event.frames && stored(event.frames);
  return displayFrames(frames, event, (frame) => contextOf(loader, event, frame));
}

/** The source lines around a resolved frame, from the map it resolved in (in the loader's cache by now). */
function contextOf(loader: SourceMapLoader, event: DisplayEvent, frame: ResolvedFrame): DisplayFrame['context'] {
  if (!frame.original) return undefined;
  const ref = frame.debugId !== undefined ? { kind: 'debugId' as const, debugId: frame.debugId } : releaseRef(event, frame);
  if (!ref) return undefined;
  const answer = loader.cached(event.factoryId, ref);
  if (!answer || !('map' in answer)) return undefined;
  return contextAround(answer.map, frame.original.source, frame.original.line, CONTEXT_RADIUS);
}

function releaseRef(event: DisplayEvent, frame: ResolvedFrame) {
  const path = releasePathOf(frame.file);
  return event.release === undefined || path === undefined ? undefined : { kind: 'release' as const, release: event.release, path };
}
