/**
 * The wait before retrying a request that met a 503, a 408 or a network
 * failure: exponential from `baseMs`, capped at `maxMs`, and jittered (half
 * fixed, half random) so that the pages of a site that all lost the API at
 * once do not come back all at once.
 */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Milliseconds a `Retry-After` header asks for (whole seconds, or an HTTP date); undefined when it says nothing usable. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}
