import { intervalUs, toleranceUs, type RatePolicy, type RateState } from './rate-limit';

/**
 * A lease of a rate limit (docs/capacity.md#limiters-that-write-once-a-lease):
 * GCRA (./rate-limit.ts) admitting `n` requests at once, so that a container
 * writes the limiter's item once per lease instead of once per request and
 * hands the requests out itself. The limit's promise is unchanged: n
 * admissions at once move the TAT exactly as n one-by-one admissions at the
 * same instant would, so at most limit + B requests are admitted in any
 * period, whatever the leases. What a lease leaves unused when it lapses is
 * lost: the limit then errs strict, never loose.
 *
 *   granted = min(wanted, ⌊(τ − ahead) / T⌋ + 1), ahead = max(0, TAT − now)
 *   TAT := max(TAT, now) + granted·T
 */

export type LeaseDecision =
  | {
      granted: number;
      /** The TAT to store. */
      tatUs: number;
      /** How the stored TAT compared with now: it picks the conditional update that advances it. */
      from: 'idle' | 'busy';
    }
  | { granted: 0; retryAfterSeconds: number };

/** How many of `wanted` requests the limit admits at `nowUs`, and the state after. */
export function decideLease(state: RateState, nowUs: number, policy: RatePolicy, wanted: number): LeaseDecision {
  const interval = intervalUs(policy);
  const busy = state.tatUs !== undefined && state.tatUs > nowUs;
  const ahead = busy ? (state.tatUs as number) - nowUs : 0;
  const room = toleranceUs(policy) - ahead;
  if (room < 0) return { granted: 0, retryAfterSeconds: Math.max(1, Math.ceil(-room / 1e6)) };
  const granted = Math.max(1, Math.min(Math.floor(wanted), Math.floor(room / interval) + 1));
  return { granted, tatUs: (busy ? (state.tatUs as number) : nowUs) + granted * interval, from: busy ? 'busy' : 'idle' };
}

/**
 * How many requests a container asks for: half again what it used in its
 * last lease (a container's traffic changes slowly within a second), at
 * least one, and never more than a lease's share of the limit (its rate over
 * the lease's life) or the burst: a quiet container asks for one at a time,
 * exactly as without leases.
 */
export function leaseSize(usedLast: number, policy: RatePolicy, leaseMs: number): number {
  const share = Math.ceil((policy.limit * leaseMs) / policy.periodMs);
  const most = Math.max(1, Math.min(share, policy.burst + 1));
  return Math.max(1, Math.min(most, Math.ceil(usedLast * 1.5)));
}
