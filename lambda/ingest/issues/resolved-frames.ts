/**
 * What the resolver records of each frame of an event's stack (docs/source-maps.md#why-a-frame-was-not-resolved):
 * the frame as the browser wrote it and, when a map resolved it, where it was in the original source; otherwise
 * why not. Stored with the event, so its grouping can always be explained, and recomputed when it is shown.
 */

/** Why a frame was not resolved, one word each; the sentence for each is whyNotResolved's. */
export const UNRESOLVED_REASONS = [
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
] as const;
export type UnresolvedReason = (typeof UNRESOLVED_REASONS)[number];

/** Where a frame was in the original source: the map's source name (data, never a path opened), 1-based line and column. */
export interface OriginalPosition {
  source: string;
  line: number;
  column: number;
  /** The function's original name, when the map names it (read at the caller's call site). */
  fn?: string;
  /** The source line, whitespace collapsed and cut at 120, when the map carries the source (what the grouping keeps). */
  contextLine?: string;
  /** The map's `ignoreList` (or `x_google_ignoreList`) names the source: not the app's code (lambda/ingest/grouping/app-frames.ts). */
  ignored?: true;
}

/** One frame of an event's stack, top first. */
export interface ResolvedFrame {
  /** As the browser wrote it: the (minified) function name, the script URL, 1-based line and column. */
  fn: string;
  file: string;
  line?: number;
  column?: number;
  /** The debug id the page registered for this script, when it did. */
  debugId?: string;
  original?: OriginalPosition;
  unresolved?: UnresolvedReason;
}

/** Frames resolved per event at most: deeper ones are the framework's and never group. */
export const MAX_RESOLVED_FRAMES = 50;

/** The path a build without debug ids is keyed by (docs/source-maps.md): the URL's pathname as `~/…`, no origin, query or fragment. */
export function releasePathOf(url: string): string | undefined {
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^?#]*)/i.exec(url);
  if (!match) return undefined;
  const path = match[1] || '/';
  return `~${path}`;
}

/**
 * The answer to "why is this frame not resolved?", in the product's words: what was looked for, what was
 * found, and what to do about it.
 */
export function whyNotResolved(frame: ResolvedFrame, event: { release?: string; debugIds?: Record<string, string> }): string | undefined {
  switch (frame.unresolved) {
    case undefined:
      return undefined;
    case 'not-in-app':
      return 'not a script of the site (browser code, an extension or eval): no map is looked for';
    case 'no-position':
      return 'the browser gave no line and column for this frame: nothing to look up';
    case 'no-debug-id':
      return 'this script carries no debug id and the event names no release: run `sourcemaps inject` on the built files before deploying them, or send `release` and upload with --release';
    case 'url-mismatch': {
      const urls = Object.keys(event.debugIds ?? {})
        .slice(0, 3)
        .join(', ');
      return `the page registered debug ids only for other scripts (${urls}), not for ${frame.file}, and the event names no release: the deployed file is not the injected one, or it was injected after its map was made`;
    }
    case 'no-map':
      return frame.debugId !== undefined
        ? `no map uploaded for debug id ${frame.debugId}: upload the build's maps (sourcemaps upload) — events are shown resolved once it is`
        : `the event sent no debug id for this script, and no map was uploaded for release ${event.release ?? '?'} and path ${releasePathOf(frame.file) ?? frame.file}: if the build was injected (sourcemaps inject, sentry-cli or a Sentry bundler plugin), the page's SDK did not read its registry — report with this service's SDK or a Sentry SDK, which read both; otherwise upload with --release ${event.release ?? '<release>'} — events are shown resolved once the map is there`;
    case 'outside-map':
      return `line ${frame.line ?? '?'} column ${frame.column ?? '?'} is outside the map: the map is of another build of this file`;
    case 'map-refused':
      return "the map is too large to resolve within the resolver's memory bound: split the bundle";
    case 'map-broken':
      return 'the stored map is not a valid source map (JSON or mappings broken): upload it again';
    case 'map-slow':
      return 'the map could not be read in time (storage slow or unavailable): the event was grouped on its minified frames; it is resolved again when shown';
    case 'frame-limit':
      return `only the top ${MAX_RESOLVED_FRAMES} frames are resolved`;
  }
}
