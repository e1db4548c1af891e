import type { StoredEvent } from '../issues/stored-event';
import { withResolvedFrames } from './event-frames';
import type { SourceMapLoader } from './map-loader';

/**
 * The ingest API's resolve step (lambda/ingest/receive-events.ts, between scrubbing and grouping): a request's
 * events get their frames resolved within RESOLVE_BUDGET_MS; a map not read by then leaves its frames minified
 * (`map-slow`), so no map ever holds an event past the ingest function's limits (docs/source-maps.md#resolving).
 */

/** The most a request waits for maps: well inside the function's 10 s, and an SDK's patience. */
export const RESOLVE_BUDGET_MS = 1_000;

/** The ingest API's FrameResolver (lambda/ingest/ports.ts), by shape: this folder imports nothing of lambda/ingest. */
export class IngestFrameResolver {
  constructor(
    private readonly loader: SourceMapLoader,
    /**
     * How long a request waits for maps: milliseconds (a timer the request clears when it is done, so a request that
     * finds its maps in the cache leaves nothing behind), or the signal that ends the wait (tests abort their own).
     */
    private readonly budget: number | (() => AbortSignal) = RESOLVE_BUDGET_MS,
  ) {}

  async resolve<T extends StoredEvent>(events: readonly T[]): Promise<T[]> {
    if (!events.some((event) => event.exception?.stack)) return [...events];
    if (typeof this.budget === 'function') return withResolvedFrames(this.loader, events, this.budget());
    // Not AbortSignal.timeout: its timer outlives the request and, firing, builds a DOMException for nobody.
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.budget);
    try {
      return await withResolvedFrames(this.loader, events, deadline.signal);
    } finally {
      clearTimeout(timer);
    }
  }
}
