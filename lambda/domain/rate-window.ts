const MINUTE_MS = 60_000;

/**
 * Rate limits count requests in fixed one-minute windows (spec 8: "requests per
 * minute per key"). The window number is minutes since the epoch.
 */
export function minuteWindow(nowMs: number): number {
  return Math.floor(nowMs / MINUTE_MS);
}

/** Whole seconds until `window` ends, at least 1: the `Retry-After` value. */
export function retryAfterSeconds(window: number, nowMs: number): number {
  return Math.max(1, Math.ceil(((window + 1) * MINUTE_MS - nowMs) / 1000));
}
