/**
 * When to send a request again (docs/contacts-api.md#errors, for clients): after a 429, wait
 * `Retry-After` seconds (1 when absent); after a 503 or a network failure,
 * wait a jittered, growing backoff, and at least `Retry-After` when the
 * answer has one. Nothing else is retried. Retrying any call of this API is
 * safe, the upsert included: the same email always maps to the same record.
 */

/** What one attempt ended with, as far as retrying goes. */
export type AttemptOutcome = { kind: 'status'; status: number; retryAfterSeconds: number | undefined } | { kind: 'network' };

export const DEFAULT_RETRY_AFTER_SECONDS = 1;
/** The first backoff after a 503 or a network failure; it doubles per retry up to MAX_BACKOFF_MS. */
export const BASE_BACKOFF_MS = 250;
export const MAX_BACKOFF_MS = 8_000;

/** Parses `Retry-After` as whole seconds (the service's form); a date or garbage counts as absent. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (value === null || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Number(value);
}

/**
 * Milliseconds to wait before the next attempt, or undefined when the
 * outcome is not worth retrying. `retry` counts retries so far (0 before the
 * first); `random` is in [0, 1).
 */
export function retryDelayMs(outcome: AttemptOutcome, retry: number, random: number): number | undefined {
  if (outcome.kind === 'status' && outcome.status === 429) {
    return (outcome.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS) * 1000;
  }
  if (outcome.kind === 'network' || outcome.status === 503) {
    const backoff = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** retry);
    const jittered = backoff / 2 + (random * backoff) / 2;
    const floor = outcome.kind === 'status' ? (outcome.retryAfterSeconds ?? 0) * 1000 : 0;
    return Math.round(floor + jittered);
  }
  return undefined;
}
