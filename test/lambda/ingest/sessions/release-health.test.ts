import { addHashes, emptySketch } from '../../../../lambda/kernel/distinct-sketch';
import {
  adoption,
  crashFreeRate,
  crashFreeUsers,
  firstHours,
  hourlyBuckets,
  lastHours,
  releaseDeltas,
  releaseSummary,
  startedIn,
  zeroCounters,
} from '../../../../lambda/ingest/sessions/release-health';

/** The rates a release shows (lambda/ingest/sessions/release-health.ts). */
const H = 500_000;

test('crash-free sessions: the share that did not crash, null before any started, never below 0', () => {
  expect(crashFreeRate(8, 1)).toBe(7 / 8);
  expect(crashFreeRate(0, 0)).toBeNull();
  expect(crashFreeRate(1, 3)).toBe(0);
});

test('crash-free users: exact below 100 users', () => {
  const users = addHashes(emptySketch(), ['aaaaaaaa', 'bbbbbbbb', 'cccccccc', 'dddddddd']);
  const crashed = addHashes(emptySketch(), ['aaaaaaaa']);
  expect(crashFreeUsers(users, crashed)).toEqual({ rate: 0.75, users: 4, crashedUsers: 1, exact: true });
  expect(crashFreeUsers(undefined, undefined).rate).toBeNull();
});

test("adoption: the release's share of the factory's sessions, null when none started", () => {
  expect(adoption(2, 10)).toBe(0.2);
  expect(adoption(0, 0)).toBeNull();
});

test("a batch's counts grouped per release: counters per hour, users and crashed users once each", () => {
  const base = { factoryId: 'fac_a', release: 'r1', environment: 'production', hour: H, count: 1 };
  const deltas = releaseDeltas([
    { ...base, status: 'started', user: 'u1' },
    { ...base, status: 'crashed', user: 'u1' },
    { ...base, status: 'started', user: 'u2', hour: H + 1 },
    { ...base, release: 'r2', status: 'started' },
  ]);
  expect(deltas).toHaveLength(2);
  expect(deltas[0]?.hours.get(H)).toMatchObject({ started: 1, crashed: 1 });
  expect(deltas[0]?.hours.get(H + 1)).toMatchObject({ started: 1 });
  expect(deltas[0]?.users).toEqual(['u1', 'u2']);
  expect(deltas[0]?.crashedUsers).toEqual(['u1']);
  expect(deltas[1]?.users).toEqual([]);
});

test("the hours read: the last N up to now, and a release's first N from its first seen, never past now", () => {
  const now = H * 3600_000 + 10;
  expect(lastHours(now, 3)).toEqual([H - 2, H - 1, H]);
  expect(firstHours(new Date((H - 1) * 3600_000).toISOString(), now, 168)).toEqual([H - 1, H]);
  expect(firstHours('not a time', now, 5)).toEqual([]);
});

test('a summary shows the counters, the rates and adoption; hourly buckets are oldest first with their rate', () => {
  const counters = { ...zeroCounters(), started: 4, crashed: 1, exited: 3 };
  expect(releaseSummary({ release: 'r', environment: 'e', firstSeen: 'f', lastSeen: 'l', counters }, 4, 8)).toMatchObject({
    sessions: 4,
    crashed: 1,
    crashFreeSessions: 0.75,
    crashFreeUsers: null,
    adoption: 0.5,
  });
  const hours = new Map([
    [H + 1, { ...zeroCounters(), started: 2 }],
    [H, counters],
  ]);
  expect(startedIn(hours)).toBe(6);
  expect(hourlyBuckets(hours).map((bucket) => [bucket.hour, bucket.crashFreeSessions])).toEqual([
    [new Date(H * 3600_000).toISOString(), 0.75],
    [new Date((H + 1) * 3600_000).toISOString(), 1],
  ]);
});
