import type { MapRef } from './ports';
import { releasePathOf, type UnresolvedReason } from '../issues/resolved-frames';
import { withoutQueryOrFragment } from '../../kernel/text-ends';

/**
 * Which stored map a frame's script asks for (docs/source-maps.md): by the debug id the page registered for
 * the script's URL (the URL as written, then without its query and fragment: a cache-busting `?v=` must not lose
 * the id); without one, by the event's release and the URL's path. Pure.
 */

export type RefOrReason = { ref: MapRef; debugId?: string } | { unresolved: Extract<UnresolvedReason, 'no-debug-id' | 'url-mismatch'> };

export function mapRefOf(file: string, event: { release?: string; debugIds?: Record<string, string> }): RefOrReason {
  const ids = event.debugIds ?? {};
  const debugId = Object.hasOwn(ids, file) ? ids[file] : Object.entries(ids).find(([url]) => withoutQueryOrFragment(url) === withoutQueryOrFragment(file))?.[1];
  if (debugId !== undefined) return { ref: { kind: 'debugId', debugId }, debugId };
  const path = releasePathOf(file);
  if (event.release !== undefined && path !== undefined) return { ref: { kind: 'release', release: event.release, path } };
  return { unresolved: Object.keys(ids).length > 0 ? 'url-mismatch' : 'no-debug-id' };
}

/** One text per ref: the cache's key, with the factory. */
export const refKey = (factoryId: string, ref: MapRef): string =>
  ref.kind === 'debugId' ? `${factoryId}\ndebugId\n${ref.debugId}` : `${factoryId}\nrelease\n${ref.release}\n${ref.path}`;
