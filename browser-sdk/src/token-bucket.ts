/**
 * A token bucket per key (the error's type): `burst` events at once, then
 * one more every `refillMs`. An error thrown in a loop sends a handful, not
 * thousands, while a different error still gets through.
 */
export interface TokenBuckets {
  /** Takes one token of `key`'s bucket at time `now` (ms); false when it is empty. */
  take(key: string, now: number): boolean;
}

/** Buckets kept at most: a page that reports ever new message texts must not grow memory without end. */
const MAX_BUCKETS = 1000;

export function tokenBuckets(burst: number, refillMs: number): TokenBuckets {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(key, now) {
      let bucket = buckets.get(key);
      if (!bucket) {
        // The oldest key goes first (a Map keeps insertion order).
        if (buckets.size >= MAX_BUCKETS) buckets.delete(buckets.keys().next().value as string);
        bucket = { tokens: burst, at: now };
      }
      const refilled = refillMs > 0 ? Math.floor((now - bucket.at) / refillMs) : 0;
      if (refilled > 0) {
        bucket.tokens = Math.min(burst, bucket.tokens + refilled);
        // Keep the time of the partial token already earned.
        bucket.at = bucket.tokens === burst ? now : bucket.at + refilled * refillMs;
      }
      buckets.set(key, bucket);
      if (bucket.tokens < 1) return false;
      bucket.tokens -= 1;
      return true;
    },
  };
}
