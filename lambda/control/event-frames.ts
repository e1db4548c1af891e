import { framesForDisplay, type DisplayEvent } from '../ingest/sourcemaps/display-frames';
import type { ControlDependencies } from './ports';

/** The most an event page waits for maps: past it, the frames show as resolved at ingest, or why not. */
export const DISPLAY_BUDGET_MS = 2_000;

/**
 * An event as shown (docs/source-maps.md#reading-original-frames): `frames` replaced by the frames resolved
 * now (original, minified beside, or why not), so an event stored before its map reads resolved once it is there.
 */
export async function withDisplayFrames<T extends object>(deps: Pick<ControlDependencies, 'sourceMaps' | 'sourceMapBudgetMs'>, event: T): Promise<T> {
  const view = event as T & Partial<DisplayEvent>;
  if (typeof view.factoryId !== 'string' || typeof view.exception?.stack !== 'string') return event;
  const frames = await framesForDisplay(view as DisplayEvent, deps.sourceMaps, AbortSignal.timeout(deps.sourceMapBudgetMs ?? DISPLAY_BUDGET_MS));
  return frames === undefined ? event : { ...event, frames };
}
