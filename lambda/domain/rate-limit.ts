/**
 * The rate limit of a key, as a pure rule: GCRA (the generic cell rate
 * algorithm), which keeps one number per key, its theoretical arrival time
 * (TAT). Requests are admitted at the key's rate, one every T = period /
 * limit, plus a burst allowance of B requests:
 *
 *   admit at time t  ⇔  max(TAT, t) − t ≤ B·T;   then TAT := max(TAT, t) + T
 *
 * The promise, in one sentence: **in any span of one period [t, t + period),
 * at most limit + B requests are admitted, across any number of callers and
 * containers, and a caller whose requests are at least T apart is never
 * refused.** (Admitted requests n in a span of length W satisfy
 * (n − 1)·T ≤ B·T + (t_n − t_1) < B·T + W, so n < limit + B + 1.)
 * B is 10% of the limit, rounded down: a key of 30,000 per minute may send
 * 3,001 requests at once and at most 33,000 in any 60 s; a key of 5 per
 * minute one request every 12 s.
 *
 * Times are whole microseconds since the epoch, and T is rounded up to a
 * whole microsecond, which only ever makes the limit stricter.
 */

export interface RatePolicy {
  /** Requests per period. */
  limit: number;
  periodMs: number;
  /** Requests allowed beyond the steady rate (B above). */
  burst: number;
}

/** What the store holds for one limit: the theoretical arrival time, or nothing for a limit never used. */
export interface RateState {
  tatUs?: number;
}

export type RateDecision =
  | {
      admitted: true;
      /** The state to store: the write must also check that `from` still holds. */
      tatUs: number;
      /** How the stored TAT compared with now: it picks the update that advances it (see the store). */
      from: 'idle' | 'busy';
      /** Requests that would still be admitted right now. */
      remaining: number;
      /** Seconds until the full burst is available again. */
      resetSeconds: number;
    }
  | {
      admitted: false;
      /** Whole seconds until a request would be admitted, at least 1. */
      retryAfterSeconds: number;
      remaining: 0;
      resetSeconds: number;
    };

const US_PER_MS = 1000;

/** The per-minute policy of a key: its limit, and a burst of 10% of it (rounded down). */
export function perMinutePolicy(limit: number): RatePolicy {
  return { limit, periodMs: 60_000, burst: Math.floor(limit / 10) };
}

/** T: the emission interval in whole microseconds (rounded up: never looser than the limit). */
export function intervalUs(policy: RatePolicy): number {
  return Math.ceil((policy.periodMs * US_PER_MS) / policy.limit);
}

/** B·T: how far ahead of now the TAT may be for a request to be admitted. */
export function toleranceUs(policy: RatePolicy): number {
  return policy.burst * intervalUs(policy);
}

export const toMicroseconds = (nowMs: number): number => Math.round(nowMs * US_PER_MS);

/**
 * The decision for one request at `nowUs` on the stored `state`. Pure: the
 * store applies it with a conditional write that holds only if the stored
 * TAT is still on the same side of now (`from`) and within the tolerance.
 */
export function decideRate(state: RateState, nowUs: number, policy: RatePolicy): RateDecision {
  const interval = intervalUs(policy);
  const tolerance = toleranceUs(policy);
  const busy = state.tatUs !== undefined && state.tatUs > nowUs;
  const base = busy ? (state.tatUs as number) : nowUs;
  if (base - nowUs > tolerance) {
    return {
      admitted: false,
      retryAfterSeconds: Math.max(1, Math.ceil((base - tolerance - nowUs) / 1e6)),
      remaining: 0,
      resetSeconds: Math.ceil((base - nowUs) / 1e6),
    };
  }
  const tatUs = base + interval;
  return {
    admitted: true,
    tatUs,
    from: busy ? 'busy' : 'idle',
    remaining: remainingAfter(tatUs, nowUs, policy),
    resetSeconds: Math.ceil((tatUs - nowUs) / 1e6),
  };
}

/** Requests admitted right now on a stored TAT (0 when the next one would be refused). */
export function remainingAfter(tatUs: number, nowUs: number, policy: RatePolicy): number {
  const ahead = Math.max(0, tatUs - nowUs);
  return Math.max(0, Math.floor((toleranceUs(policy) - ahead) / intervalUs(policy)) + 1);
}
