import type { MapRef } from '../ports';

/** A debug id: a UUID, lowercase, with dashes (as `inject` writes it). */
export const DEBUG_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Bounds that keep an object key well inside S3's 1,024 bytes whatever the characters. */
export const MAX_RELEASE_CHARS = 200;
export const MAX_PATH_CHARS = 400;

// Control characters make keys and messages unreadable; nothing a bundler writes carries them.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * A map's ref as a caller sends it (`{"debugId": …}`, or `{"release": …, "path": "~/…"}`), or why it is not one.
 * The path is a URL's pathname under `~/` (no origin, query or fragment), as frames are matched.
 */
export function readMapRef(value: unknown): MapRef | { error: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { error: 'ref must be an object: {"debugId": "<uuid>"} or {"release": "<release>", "path": "~/assets/app.js"}' };
  }
  const { debugId, release, path } = value as Record<string, unknown>;
  if (debugId !== undefined) {
    if (release !== undefined || path !== undefined) return { error: 'ref names a debugId or a release and path, not both' };
    if (typeof debugId !== 'string' || !DEBUG_ID_PATTERN.test(debugId)) {
      return { error: 'ref.debugId must be a lowercase UUID with dashes, as inject writes it' };
    }
    return { kind: 'debugId', debugId };
  }
  if (typeof release !== 'string' || release.length === 0 || release.length > MAX_RELEASE_CHARS || CONTROL.test(release)) {
    return { error: `ref.release must be a non-empty string of at most ${MAX_RELEASE_CHARS} printable characters` };
  }
  if (typeof path !== 'string' || !path.startsWith('~/') || path.length > MAX_PATH_CHARS || CONTROL.test(path) || /[?#]/.test(path)) {
    return {
      error: `ref.path must be the file's URL path under "~/" (like "~/assets/app.js"), without query or fragment, at most ${MAX_PATH_CHARS} characters`,
    };
  }
  return { kind: 'release', release, path };
}
