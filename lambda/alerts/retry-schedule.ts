/**
 * When a failed delivery is tried again (docs/alerts.md#retries): after 5 s
 * (Svix's schedule starts so, and the first retry is due within 10 s), 5 min,
 * 30 min, 2 h, 5 h, 8 h and 8 h: eight attempts, the last about 23.6 hours
 * after the first, then the delivery has failed. Each wait from 5 minutes on
 * is shortened by up to a tenth at random, so deliveries that failed
 * together (a receiver's outage) do not all come back in the same second;
 * never lengthened, so the schedule stays inside 24 hours.
 */
export const RETRY_DELAYS_SECONDS = [5, 300, 1800, 7200, 18_000, 28_800, 28_800] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/** Seconds to wait after the `attempt`-th attempt (from 1) failed; undefined when it was the last. */
export function retryDelaySeconds(attempt: number, random: () => number = Math.random): number | undefined {
  const delay = RETRY_DELAYS_SECONDS[attempt - 1];
  if (delay === undefined) return undefined;
  return delay < 300 ? delay : Math.round(delay * (1 - 0.1 * random()));
}
