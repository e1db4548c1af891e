import { isInAppFrame, parseStackLocations } from '../grouping/stack-frames';
import type { ResolvedFrame } from '../issues/resolved-frames';
import type { SourceMapLoader } from './map-loader';
import { refKey } from './map-refs';
import type { MapRef } from './ports';
import { frameRefs, resolveFrames, type EventMaps, type MapAnswer } from './resolve-frames';

/**
 * An event's frames resolved through the maps its scripts ask for (docs/source-maps.md#resolving): the maps are
 * loaded side by side, each at most once, until `signal` aborts; what is not loaded by then is answered
 * `map-slow` and the frame stays minified. Never throws.
 */

/** Distinct maps one event may ask for: a stack rarely spans more than a few bundles. */
export const MAX_MAPS_PER_EVENT = 10;

export interface FramesInput extends EventMaps {
  factoryId: string;
  exception?: { stack?: string };
}

/** The maps some events ask for, loaded side by side; the answers by ref key. */
export async function loadMapsFor(loader: SourceMapLoader, events: readonly FramesInput[], signal?: AbortSignal): Promise<Map<string, MapAnswer>> {
  const wanted = new Map<string, { factoryId: string; ref: MapRef }>();
  for (const event of events) {
    const perEvent = new Set<string>();
    for (const item of frameRefs(parseStackLocations(event.exception?.stack ?? ''), event)) {
      if (!('ref' in item)) continue;
      const key = refKey(event.factoryId, item.ref);
      if (perEvent.size >= MAX_MAPS_PER_EVENT && !perEvent.has(key)) continue;
      perEvent.add(key);
      wanted.set(key, { factoryId: event.factoryId, ref: item.ref });
    }
  }
  const answers = await Promise.all([...wanted].map(async ([key, { factoryId, ref }]) => [key, await loader.load(factoryId, ref, signal)] as const));
  return new Map(answers);
}

/**
 * One event's frames, given the answers loadMapsFor gave; undefined when its stack has no frame of a page's script
 * (a server's stack, an engine's frames alone): nothing there needs a map, nor a reason why it has none.
 */
export function framesOf(event: FramesInput, answers: ReadonlyMap<string, MapAnswer>): ResolvedFrame[] | undefined {
  const located = parseStackLocations(event.exception?.stack ?? '');
  if (!located.some(isInAppFrame)) return undefined;
  return resolveFrames(located, event, (ref) => answers.get(refKey(event.factoryId, ref)));
}

/** Events with their frames resolved. */
export async function withResolvedFrames<T extends FramesInput>(
  loader: SourceMapLoader,
  events: readonly T[],
  signal?: AbortSignal,
): Promise<(T & { frames?: ResolvedFrame[] })[]> {
  const answers = await loadMapsFor(loader, events, signal);
  return events.map((event) => {
    const frames = framesOf(event, answers);
    return frames === undefined ? event : { ...event, frames };
  });
}
