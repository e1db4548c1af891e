import { isIgnored, originalPositionFor, sourceContentFor, type TraceMap } from '@jridgewell/trace-mapping';
import { isInAppFrame, type LocatedFrame } from '../grouping/stack-frames';
import { MAX_RESOLVED_FRAMES, type ResolvedFrame, type UnresolvedReason } from '../issues/resolved-frames';
import type { MapRef } from './ports';
import { mapRefOf } from './map-refs';

/**
 * An event's frames through their maps (docs/source-maps.md#resolving): pure once the maps are loaded. Each
 * in-app frame with a position asks for its script's map (map-refs.ts); `answerOf` says what loading it gave.
 *
 * A frame's original function name is read at its caller's call site: the stack's next frame points at the
 * call (`c(x)` in the minified code), and the map names the identifier there with its original name
 * (`addToCart`). The name at the frame's own position is whatever identifier the error happened on, not its
 * function. The deepest frame has no caller in the stack: its original name stays unknown.
 */

/** What loading a map gave: the map, or why there is none. */
export type MapAnswer = { map: TraceMap } | { unresolved: Extract<UnresolvedReason, 'no-map' | 'map-broken' | 'map-refused' | 'map-slow'> };

export interface EventMaps {
  release?: string;
  debugIds?: Record<string, string>;
}

/** Each frame's map ref, or why it has none (not looked up: not in app, no position, no debug id). */
export function frameRefs(frames: readonly LocatedFrame[], event: EventMaps): ({ ref: MapRef; debugId?: string } | { unresolved: UnresolvedReason })[] {
  return frames.map((frame, index) => {
    if (index >= MAX_RESOLVED_FRAMES) return { unresolved: 'frame-limit' };
    if (!isInAppFrame(frame)) return { unresolved: 'not-in-app' };
    if (frame.line === undefined || frame.column === undefined) return { unresolved: 'no-position' };
    return mapRefOf(frame.file, event);
  });
}

/** Source lines per map and source, split once. */
const linesCache = new WeakMap<TraceMap, Map<string, string[] | null>>();

/** The source's lines when the map carries its text (sourcesContent), else undefined. */
export function sourceLines(map: TraceMap, source: string): string[] | undefined {
  let perSource = linesCache.get(map);
  if (!perSource) {
    perSource = new Map();
    linesCache.set(map, perSource);
  }
  let lines = perSource.get(source);
  if (lines === undefined) {
    const text = sourceContentFor(map, source);
    lines = text === null ? null : text.split(/\r\n|\r|\n/);
    perSource.set(source, lines);
  }
  return lines ?? undefined;
}

/** The line the grouping keeps (Sentry's newstyle): whitespace collapsed, at most 120 characters. */
export const CONTEXT_LINE_MAX = 120;
export const groupingLine = (line: string): string => line.trim().replace(/\s+/g, ' ').slice(0, CONTEXT_LINE_MAX);

export function resolveFrames(frames: readonly LocatedFrame[], event: EventMaps, answerOf: (ref: MapRef) => MapAnswer | undefined): ResolvedFrame[] {
  const refs = frameRefs(frames, event);
  // Per frame: the map it resolved in and the name the map gives at its position (the name of what it calls).
  const looked: { map?: TraceMap; name?: string }[] = [];
  const resolved = frames.map((frame, index): ResolvedFrame => {
    const base: ResolvedFrame = {
      fn: frame.fn,
      file: frame.file,
      ...(frame.line === undefined ? {} : { line: frame.line }),
      ...(frame.column === undefined ? {} : { column: frame.column }),
    };
    const refOrReason = refs[index] as (typeof refs)[number];
    looked.push({});
    if ('unresolved' in refOrReason) return { ...base, unresolved: refOrReason.unresolved };
    const withId = refOrReason.debugId === undefined ? base : { ...base, debugId: refOrReason.debugId };
    const answer = answerOf(refOrReason.ref) ?? { unresolved: 'map-slow' as const };
    if ('unresolved' in answer) return { ...withId, unresolved: answer.unresolved };
    // Browsers count columns from 1, source maps from 0.
    const position = originalPositionFor(answer.map, { line: frame.line as number, column: (frame.column as number) - 1 });
    if (position.source === null) return { ...withId, unresolved: 'outside-map' };
    looked[index] = { map: answer.map, ...(position.name === null ? {} : { name: position.name }) };
    const lines = sourceLines(answer.map, position.source);
    const line = lines?.[position.line - 1];
    return {
      ...withId,
      original: {
        source: position.source,
        line: position.line,
        column: position.column + 1,
        ...(line === undefined ? {} : { contextLine: groupingLine(line) }),
        // A source the map's ignoreList names (a bundler marks its packages so) is not the app's: the grouping skips it.
        ...(isIgnored(answer.map, position.source) ? { ignored: true as const } : {}),
      },
    };
  });
  for (const [index, frame] of resolved.entries()) {
    const caller = looked[index + 1];
    // The caller's call site names this frame's function only when both are in the same map (one bundle).
    if (frame.original && caller?.name !== undefined && caller.map === looked[index]?.map) frame.original.fn = caller.name;
  }
  return resolved;
}

/** A frame's source lines around its original line, for display: `radius` before and after, when the map carries them. */
export function contextAround(map: TraceMap, source: string, line: number, radius: number): { firstLine: number; lines: string[] } | undefined {
  const lines = sourceLines(map, source);
  if (!lines || line < 1 || line > lines.length) return undefined;
  const first = Math.max(1, line - radius);
  return {
    firstLine: first,
    lines: lines.slice(first - 1, Math.min(lines.length, line + radius)).map((text) => (text.length > 500 ? `${text.slice(0, 500)}…` : text)),
  };
}
