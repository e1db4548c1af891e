import { withResolvedFrames } from './event-frames';
import { releasePathOf, whyNotResolved, type ResolvedFrame } from '../issues/resolved-frames';
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
  source?: string;
  line?: number;
  column?: number;
  /** The source lines around `line`, the first of them numbered `firstLine`. */
  context?: { firstLine: number; lines: string[] };
  minified: { function: string; url: string; line?: number; column?: number; debugId?: string };
  /** Why it was not resolved: absent when it was. */
  whyNotResolved?: string;
}

export interface DisplayEvent {
  factoryId: string;
  release?: string;
  debugIds?: Record<string, string>;
  exception?: { stack?: string };
  frames?: ResolvedFrame[];
}

function displayFrame(frame: ResolvedFrame, event: DisplayEvent, context?: DisplayFrame['context']): DisplayFrame {
  const minified = {
    function: frame.fn,
    url: frame.file,
    ...(frame.line === undefined ? {} : { line: frame.line }),
    ...(frame.column === undefined ? {} : { column: frame.column }),
    ...(frame.debugId === undefined ? {} : { debugId: frame.debugId }),
  };
  const { original } = frame;
  if (!original) return { minified, whyNotResolved: whyNotResolved(frame, event) ?? 'not resolved' };
  return {
    ...(original.fn === undefined ? {} : { function: original.fn }),
    source: original.source,
    line: original.line,
    column: original.column,
    ...(context ? { context } : {}),
    minified,
  };
}

/**
 * The frames to show: resolved now through `loader` when there is one (never waiting past `signal`), else as
 * resolved at ingest. Undefined for an event without a stack.
 */
export async function framesForDisplay(event: DisplayEvent, loader?: SourceMapLoader, signal?: AbortSignal): Promise<DisplayFrame[] | undefined> {
  if (!loader) return event.frames?.map((frame) => displayFrame(frame, event));
  const [resolved] = await withResolvedFrames(loader, [{ ...event, factoryId: event.factoryId }], signal);
  const frames = resolved?.frames;
  if (!frames) return event.frames?.map((frame) => displayFrame(frame, event));
  return frames.map((frame) => displayFrame(frame, event, contextOf(loader, event, frame)));
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
