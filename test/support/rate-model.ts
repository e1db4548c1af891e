import fc from 'fast-check';
import { intervalUs, perMinutePolicy } from '../../lambda/kernel/rate-limit';

/**
 * The limiter's promise, restated without its algorithm, to check any
 * limiter against (the pure rule, the DynamoDB authorizer): what a sequence
 * of arrivals and the decisions taken on them may look like.
 */

export const MINUTE_US = 60_000_000;

/** The most admissions found in any half-open span [t, t + spanUs). */
export function mostInAnySpan(admittedUs: number[], spanUs = MINUTE_US): number {
  const sorted = [...admittedUs].sort((a, b) => a - b);
  let most = 0;
  let first = 0;
  for (let last = 0; last < sorted.length; last += 1) {
    while ((sorted[last] as number) - (sorted[first] as number) >= spanUs) first += 1;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

/** The bound: the limit plus the burst allowance, in any 60 s. */
export const boundOf = (limit: number): number => limit + perMinutePolicy(limit).burst;

/**
 * A refusal at `atUs` is owed: some span (s, atUs] already holds more
 * admissions than the burst plus the steady rate allows over its length,
 * m > B + (atUs − s) / T. A limiter that refuses without this is stricter
 * than its promise.
 */
export function refusalOwed(admittedUs: number[], atUs: number, limit: number): boolean {
  const policy = perMinutePolicy(limit);
  const interval = intervalUs(policy);
  const earlier = admittedUs.filter((t) => t <= atUs).sort((a, b) => b - a);
  // The span starting at the k-th most recent admission holds k of them.
  return earlier.some((s, index) => (index + 1) * interval > policy.burst * interval + (atUs - s));
}

/** Limits worth trying: the smallest, ones under 10 (no burst), round ones, one that does not divide a minute, the largest allowed. */
export const limitArb = fc.oneof(fc.constantFrom(1, 2, 5, 7, 9, 10, 11, 60, 100, 600, 30_000, 1_000_000), fc.integer({ min: 1, max: 1_000_000 }));

/**
 * Gaps between arrivals for a key of `limit`, in µs: simultaneous
 * requests, gaps around the interval T, and pauses long enough to let the
 * limiter idle, so bursts, steady runs and recoveries all occur.
 */
export function gapArb(limit: number) {
  const interval = intervalUs(perMinutePolicy(limit));
  return fc.oneof(
    { arbitrary: fc.constant(0), weight: 3 },
    { arbitrary: fc.integer({ min: 1, max: Math.max(1, Math.floor(interval / 2)) }), weight: 2 },
    { arbitrary: fc.integer({ min: Math.floor(interval / 2), max: 2 * interval }), weight: 3 },
    { arbitrary: fc.integer({ min: 2 * interval, max: Math.max(70_000_000, 3 * interval) }), weight: 1 },
  );
}

/** Arrival times (µs, non-decreasing) built from gaps, starting at `startUs`. */
export function arrivalsFrom(startUs: number, gaps: number[]): number[] {
  let at = startUs;
  return gaps.map((gap) => (at += gap));
}
