/**
 * The rate limit of a key, as a pure rule: GCRA (the generic cell rate
 * algorithm), which keeps one number per key, its theoretical arrival time
 * (TAT). Requests are admitted at the key's rate, one every T = period /
 * limit, plus a burst allowance of B requests (tolerance τ = B·T):
 *
 *   admit at time t  ⇔  TAT − t ≤ τ;   then TAT := max(TAT, t) + T
 *
 * The promise: **in any span of one period (60 s), at most limit + B
 * requests are admitted, across any number of callers and containers, and a
 * key whose requests arrive at least T apart is never refused.**
 *
 * Why: each admission leaves the stored TAT at least T past the TAT before
 * it and past its own t. Take the admissions inside one span, in the order
 * the store applied them: after the first n − 1, TAT ≥ t_1 + (n−1)·T, and
 * the n-th is admitted only if TAT − t_n ≤ B·T. So (n−1)·T ≤ B·T + (t_n − t_1)
 * < B·T + period ≤ (B + limit)·T, hence n ≤ limit + B. Requests spaced ≥ T
 * apart find TAT ≤ their t every time: admitted, even with B = 0.
 *
 * Clocks: t is the clock of the container deciding. If two containers'
 * clocks differ by up to s, t_n − t_1 can read up to s more than the real
 * span, so the bound becomes limit + B + ⌈s/T⌉, and requests spaced exactly
 * T apart can be refused only when s > B·T. For small limits (under 10 per
 * minute, B = 0) a caller should stay a little under the rate.
 *
 * B is 10% of the limit, rounded down: a key of 30,000 per minute may send
 * 3,001 requests at once and at most 33,000 in any 60 s; a key of 5 per
 * minute one request every 12 s, never 6 in a minute. Times are whole
 * microseconds since the epoch, and T is rounded up to a whole microsecond,
 * which only ever makes the limit stricter.
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

/** Where a caller stands right after a decision: what the rate-limit headers say. */
export interface RateStanding {
  /** Requests that would be admitted right now, back to back. */
  remaining: number;
  /**
   * Whole seconds (rounded up) until one more than `remaining` would be
   * admitted: the draft's "effective window". On a refusal it equals the
   * Retry-After.
   */
  windowSeconds: number;
}

export type RateDecision =
  | ({
      admitted: true;
      /** The state to store: the write must also check that the stored state is still on the side of now it was read on. */
      tatUs: number;
      /** How the stored TAT compared with now: it picks the update that advances it (see the store). */
      from: 'idle' | 'busy';
    } & RateStanding)
  | ({
      admitted: false;
      /** Whole seconds until a request would be admitted, at least 1. */
      retryAfterSeconds: number;
    } & RateStanding);

const US_PER_MS = 1000;
const US_PER_S = 1_000_000;

/** The per-minute policy of a key: its limit, and a burst of 10% of it (rounded down). */
export function perMinutePolicy(limit: number): RatePolicy {
  return { limit, periodMs: 60_000, burst: Math.floor(limit / 10) };
}

/** T: the emission interval in whole microseconds (rounded up: never looser than the limit). */
export function intervalUs(policy: RatePolicy): number {
  return Math.ceil((policy.periodMs * US_PER_MS) / policy.limit);
}

/** τ = B·T: how far ahead of now the TAT may be for a request to be admitted. */
export function toleranceUs(policy: RatePolicy): number {
  return policy.burst * intervalUs(policy);
}

export const toMicroseconds = (nowMs: number): number => Math.round(nowMs * US_PER_MS);

/**
 * Where a caller stands on a stored TAT at `nowUs`: requests admitted now,
 * and when one more would be. With `ahead` = TAT − now (0 when idle), the
 * k-th request from now is admitted once ahead + (k−1)·T − elapsed ≤ τ.
 */
export function standing(tatUs: number | undefined, nowUs: number, policy: RatePolicy): RateStanding {
  const interval = intervalUs(policy);
  const tolerance = toleranceUs(policy);
  const ahead = tatUs === undefined ? 0 : Math.max(0, tatUs - nowUs);
  const remaining = ahead > tolerance ? 0 : Math.floor((tolerance - ahead) / interval) + 1;
  // Always > 0: remaining·T > τ − ahead by the floor above.
  const untilMoreUs = ahead + remaining * interval - tolerance;
  return { remaining, windowSeconds: Math.ceil(untilMoreUs / US_PER_S) };
}

/**
 * The decision for one request at `nowUs` on the stored `state`. Pure: the
 * store applies it with a conditional write that holds only if the stored
 * TAT is still on the same side of now (`from`) and within the tolerance.
 */
export function decideRate(state: RateState, nowUs: number, policy: RatePolicy): RateDecision {
  const busy = state.tatUs !== undefined && state.tatUs > nowUs;
  const base = busy ? (state.tatUs as number) : nowUs;
  if (base - nowUs > toleranceUs(policy)) {
    const now = standing(base, nowUs, policy);
    return { admitted: false, retryAfterSeconds: Math.max(1, now.windowSeconds), ...now };
  }
  const tatUs = base + intervalUs(policy);
  return { admitted: true, tatUs, from: busy ? 'busy' : 'idle', ...standing(tatUs, nowUs, policy) };
}
