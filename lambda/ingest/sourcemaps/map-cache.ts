import type { TraceMap } from '@jridgewell/trace-mapping';
import type { UnresolvedReason } from '../issues/resolved-frames';

/**
 * The parsed maps a container keeps (docs/source-maps.md#memory-bound), least recently used first out, under a
 * bound in estimated heap bytes (parsed-map.ts). Answers that found no map, or a broken one, are kept too, for a
 * short while and at no byte cost, so an event storm of an unmapped build costs one storage read per container
 * and minute, not one per event; a map uploaded meanwhile is used from the next minute on (and at display at once).
 */

export type CachedAnswer = { map: TraceMap; parsedBytes: number } | { unresolved: Extract<UnresolvedReason, 'no-map' | 'map-broken' | 'map-refused'> };

/** Parsed maps' bound when the environment gives none: a quarter of a 1,024 MB function. */
export const DEFAULT_CACHE_BYTES = 256 * 1024 * 1024;
/** How long "no map" (or a broken one) is believed before storage is asked again. */
export const NEGATIVE_ANSWER_MS = 60_000;
/** Negative answers kept at most (they cost no parsed bytes, but some). */
const MAX_NEGATIVE = 10_000;

interface Entry {
  answer: CachedAnswer;
  /** For a negative answer: when it is no longer believed (ms). */
  until?: number;
}

export class MapCache {
  /** Insertion order is recency order: a hit is moved to the end. */
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private negatives = 0;

  constructor(
    readonly maxBytes: number = DEFAULT_CACHE_BYTES,
    private readonly now: () => number = Date.now,
    /** How long a negative answer is believed (0: never kept, what the display wants: a map uploaded is used at once). */
    private readonly negativeMs: number = NEGATIVE_ANSWER_MS,
  ) {}

  /** Parsed bytes held now. */
  get heldBytes(): number {
    return this.bytes;
  }

  get(key: string): CachedAnswer | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until !== undefined && entry.until <= this.now()) {
      this.delete(key, entry);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.answer;
  }

  set(key: string, answer: CachedAnswer): void {
    const old = this.entries.get(key);
    if (old) this.delete(key, old);
    if ('map' in answer) {
      if (answer.parsedBytes > this.maxBytes) return;
      this.bytes += answer.parsedBytes;
      this.entries.set(key, { answer });
      this.evict();
      return;
    }
    if (this.negativeMs <= 0) return;
    this.negatives += 1;
    this.entries.set(key, { answer, until: this.now() + this.negativeMs });
    if (this.negatives > MAX_NEGATIVE) this.evictNegative();
  }

  private delete(key: string, entry: Entry): void {
    this.entries.delete(key);
    if ('map' in entry.answer) this.bytes -= entry.answer.parsedBytes;
    else this.negatives -= 1;
  }

  /** The least recently used maps out until the rest fit. */
  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) return;
      if ('map' in entry.answer) this.delete(key, entry);
    }
  }

  private evictNegative(): void {
    for (const [key, entry] of this.entries) {
      if (this.negatives <= MAX_NEGATIVE) return;
      if (!('map' in entry.answer)) this.delete(key, entry);
    }
  }
}

/** The bound from the environment: SOURCE_MAP_CACHE_MB, else a quarter of the function's memory, else the default. */
export function cacheBytesFromEnv(env: NodeJS.ProcessEnv): number {
  const explicit = Number(env.SOURCE_MAP_CACHE_MB);
  if (Number.isFinite(explicit) && explicit > 0) return Math.floor(explicit * 1024 * 1024);
  const memory = Number(env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE);
  if (Number.isFinite(memory) && memory > 0) return Math.floor((memory * 1024 * 1024) / 4);
  return DEFAULT_CACHE_BYTES;
}
