import { distinctCount, type DistinctSketch } from '../../kernel/distinct-sketch';
import type { ReachedStatus, SessionCount } from './session-carry';

/**
 * A release's health (docs/release-health.md#how-it-is-computed): sessions
 * counted by the statuses they reached, per factory, environment, release
 * and hour, and the distinct users among them.
 */

export const SESSION_COUNTERS = ['started', 'errored', 'crashed', 'abnormal', 'exited'] as const satisfies readonly ReachedStatus[];
export type SessionCounters = Record<ReachedStatus, number>;

export const zeroCounters = (): SessionCounters => ({ started: 0, errored: 0, crashed: 0, abnormal: 0, exited: 0 });

/** A release of one environment: the one thing its counters are kept for. */
export interface ReleaseRef {
  environment: string;
  release: string;
}

/** What one stream batch adds to one release: per hour its counters, and over the batch the hashes of its users and of those whose session crashed. */
export interface ReleaseDelta extends ReleaseRef {
  factoryId: string;
  hours: Map<number, SessionCounters>;
  users: string[];
  crashedUsers: string[];
}

/** The counts of a batch grouped per factory and release, in the order they first appear. */
export function releaseDeltas(counts: readonly (SessionCount & { factoryId: string })[]): ReleaseDelta[] {
  const deltas = new Map<string, ReleaseDelta & { userSet: Set<string>; crashedSet: Set<string> }>();
  for (const count of counts) {
    const id = JSON.stringify([count.factoryId, count.environment, count.release]);
    let delta = deltas.get(id);
    if (!delta) {
      delta = {
        factoryId: count.factoryId,
        environment: count.environment,
        release: count.release,
        hours: new Map(),
        users: [],
        crashedUsers: [],
        userSet: new Set(),
        crashedSet: new Set(),
      };
      deltas.set(id, delta);
    }
    const hour = delta.hours.get(count.hour) ?? zeroCounters();
    hour[count.status] += count.count;
    delta.hours.set(count.hour, hour);
    if (count.user !== undefined) {
      delta.userSet.add(count.user);
      if (count.status === 'crashed') delta.crashedSet.add(count.user);
    }
  }
  return [...deltas.values()].map(({ userSet, crashedSet, ...delta }) => ({ ...delta, users: [...userSet].sort(), crashedUsers: [...crashedSet].sort() }));
}

/** The share of sessions that did not crash, 0 to 1; null before any started. Never above 1, though a crash may be counted before its start. */
export function crashFreeRate(started: number, crashed: number): number | null {
  if (started <= 0) return null;
  return Math.max(0, 1 - Math.min(crashed, started) / started);
}

/** The share of users none of whose sessions crashed, 0 to 1; null before any user was named. Exact below 100 users, within about 2 % above. */
export function crashFreeUsers(
  users: DistinctSketch | undefined,
  crashedUsers: DistinctSketch | undefined,
): { rate: number | null; users: number; crashedUsers: number; exact: boolean } {
  const all = distinctCount(users);
  const crashed = distinctCount(crashedUsers);
  return { rate: crashFreeRate(all.count, crashed.count), users: all.count, crashedUsers: crashed.count, exact: all.exact && crashed.exact };
}

/** A release's share of its environment's sessions over the same hours, 0 to 1; null when none started. */
export const adoption = (releaseStarted: number, allStarted: number): number | null => (allStarted <= 0 ? null : Math.min(1, releaseStarted / allStarted));

/** One release of one environment as a map key. */
export const releaseRefId = (ref: ReleaseRef): string => JSON.stringify([ref.environment, ref.release]);

const HOUR_MS = 3600_000;
/** Hours adoption is measured over, and hours of a release's first days its trend shows. */
export const ADOPTION_HOURS = 24;
export const TREND_HOURS = 7 * 24;

/** The epoch hours of the last `count` hours up to and including the one of `nowMs`, oldest first. */
export const lastHours = (nowMs: number, count: number): number[] => {
  const now = Math.floor(nowMs / HOUR_MS);
  return Array.from({ length: count }, (_, i) => now - count + 1 + i);
};

/** The epoch hours of a release's first `count` hours from its first seen, not past `nowMs`. */
export const firstHours = (firstSeen: string, nowMs: number, count: number): number[] => {
  const first = Math.floor(Date.parse(firstSeen) / HOUR_MS);
  const now = Math.floor(nowMs / HOUR_MS);
  if (!Number.isFinite(first)) return [];
  return Array.from({ length: Math.max(0, Math.min(count, now - first + 1)) }, (_, i) => first + i);
};

/** The sessions started over some hours. */
export const startedIn = (hours: ReadonlyMap<number, SessionCounters> | undefined): number =>
  [...(hours?.values() ?? [])].reduce((sum, counters) => sum + counters.started, 0);

/** What a release shows (`reports releases`, the control room): its counters and the rates computed from them. */
export interface ReleaseSummaryInput extends ReleaseRef {
  firstSeen: string;
  lastSeen: string;
  counters: SessionCounters;
  users?: DistinctSketch;
  crashedUsers?: DistinctSketch;
}

export function releaseSummary(record: ReleaseSummaryInput, startedLastDay: number, factoryStartedLastDay: number) {
  const { started, exited, errored, crashed, abnormal } = record.counters;
  const users = crashFreeUsers(record.users, record.crashedUsers);
  return {
    release: record.release,
    environment: record.environment,
    firstSeen: record.firstSeen,
    lastSeen: record.lastSeen,
    sessions: started,
    exited,
    errored,
    crashed,
    abnormal,
    crashFreeSessions: crashFreeRate(started, crashed),
    users: users.users,
    crashedUsers: users.crashedUsers,
    crashFreeUsers: users.rate,
    usersExact: users.exact,
    adoption: adoption(startedLastDay, factoryStartedLastDay),
  };
}

/** A release's hourly buckets, oldest first: each hour's counters and crash-free rate. */
export const hourlyBuckets = (hours: ReadonlyMap<number, SessionCounters>) =>
  [...hours]
    .sort(([a], [b]) => a - b)
    .map(([hour, counters]) => ({
      hour: new Date(hour * HOUR_MS).toISOString(),
      ...counters,
      crashFreeSessions: crashFreeRate(counters.started, counters.crashed),
    }));
