import {
  carryOf,
  countsOfNewElements,
  countsOfRow,
  decodeDetail,
  decodeDiscard,
  decodeRow,
  encodeDetail,
  hourOf,
  SESSION_KEY_LENGTH,
  sessionKeyOf,
  slotAt,
  SLOT_COUNT,
  statusesReached,
  UPDATES_PER_REQUEST,
} from '../../../../lambda/ingest/sessions/session-carry';
import { emptySessionReport, type SessionUpdate } from '../../../../lambda/ingest/sessions/session-reports';

/** How a request's sessions become the statuses they reached, and how those are counted back (lambda/ingest/sessions/session-carry.ts). */
const NOW = Date.parse('2031-03-01T12:30:00Z');
const update = (fields: Partial<SessionUpdate> = {}): SessionUpdate => ({
  sid: 's1',
  init: false,
  status: 'ok',
  errors: 0,
  startedMs: NOW - 60_000,
  release: 'web@1',
  environment: 'production',
  ...fields,
});

test('an update reaches started when it is the first, errored with an error or a crash, and its end status', () => {
  expect(statusesReached(update({ init: true }))).toEqual(['started']);
  expect(statusesReached(update({ errors: 2 }))).toEqual(['errored']);
  expect(statusesReached(update({ status: 'crashed' }))).toEqual(['errored', 'crashed']);
  expect(statusesReached(update({ status: 'exited' }))).toEqual(['exited']);
  expect(statusesReached(update({ status: 'abnormal' }))).toEqual(['abnormal']);
  // @sentry/browser 10+: an unhandled error that did not end the page; a crash here.
  expect(statusesReached(update({ status: 'unhandled', errors: 1 }))).toEqual(['errored', 'crashed']);
  expect(statusesReached(update())).toEqual([]);
});

test('a session counts in the hour it started, unless its start is days from its receipt', () => {
  expect(hourOf(NOW - 40 * 60_000, NOW)).toBe(Math.floor((NOW - 40 * 60_000) / 3600_000));
  expect(hourOf(NOW - 30 * 86_400_000, NOW)).toBe(Math.floor(NOW / 3600_000));
});

test('the same update resent adds no new element: each status of a session is counted once', () => {
  const report = emptySessionReport();
  report.updates.push(update({ init: true }), update({ status: 'crashed' }), update({ status: 'crashed' }));
  const carry = carryOf(report, 'fac_a', NOW);
  expect(carry?.elements).toHaveLength(3);
  const first = countsOfNewElements(new Set(), carry?.elements ?? [], carry?.details ?? {});
  expect(first.map((count) => count.status).sort()).toEqual(['crashed', 'errored', 'started']);
  expect(countsOfNewElements(new Set(carry?.elements), carry?.elements ?? [], carry?.details ?? {})).toEqual([]);
});

test("a user is carried as the factory's hash of it, never as sent", () => {
  const report = emptySessionReport();
  report.updates.push(update({ init: true, did: 'ada@example.com' }));
  const carry = carryOf(report, 'fac_a', NOW);
  expect(JSON.stringify(carry)).not.toContain('ada');
  const other = carryOf(report, 'fac_b', NOW);
  expect(Object.values(carry?.details ?? {})).not.toEqual(Object.values(other?.details ?? {}));
});

test('past UPDATES_PER_REQUEST updates, the rest are dropped and counted', () => {
  const report = emptySessionReport();
  for (let i = 0; i < UPDATES_PER_REQUEST + 3; i += 1) report.updates.push(update({ sid: `s${i}`, init: true }));
  expect(carryOf(report, 'fac_a', NOW)).toMatchObject({ dropped: 3 });
  const discards = emptySessionReport();
  discards.discarded.push({ reason: 'ratelimit_backoff', category: 'error', quantity: 4 });
  expect(carryOf(discards, 'fac_a', NOW)?.discards.map(decodeDiscard)).toEqual([
    { day: '2031-03-01', reason: 'ratelimit_backoff', category: 'error', quantity: 4 },
  ]);
  expect(carryOf(emptySessionReport(), 'fac_a', NOW)).toBeUndefined();
});

test('details and rows read back as written; anything else is not counted', () => {
  const detail = { hour: 123, release: 'r', environment: 'e', user: 'abcdefgh' };
  expect(decodeDetail(encodeDetail(detail))).toEqual(detail);
  expect(decodeDetail('["x"]')).toBeUndefined();
  expect(decodeDetail('{')).toBeUndefined();
  expect(decodeRow('[1,2]')).toBeUndefined();
  expect(decodeDiscard('["2031-03-01","r","c",0]')).toBeUndefined();
  expect(decodeDiscard('["yesterday","r","c",1]')).toBeUndefined();
  expect(decodeRow(JSON.stringify([encodeDetail(detail), 1, -1, 0, 0]))).toBeUndefined();
  expect(decodeRow(JSON.stringify([encodeDetail(detail), 4, 1, 1, 0]))).toEqual({ ...detail, exited: 4, errored: 1, crashed: 1, abnormal: 0 });
});

test('a row counts each session started once, errored and crashed ones as errored, each end as itself', () => {
  const counts = countsOfRow({ hour: 1, release: 'r', environment: 'e', exited: 4, errored: 1, crashed: 2, abnormal: 0 });
  expect(Object.fromEntries(counts.map((count) => [count.status, count.count]))).toEqual({ started: 7, errored: 3, crashed: 2, exited: 4 });
});

test('session keys are short and fixed; slots rotate every 20 minutes over SLOT_COUNT', () => {
  expect(sessionKeyOf('any id at all')).toHaveLength(SESSION_KEY_LENGTH);
  expect(new Set([0, 20, 40].map((minutes) => slotAt(NOW + minutes * 60_000))).size).toBe(SLOT_COUNT);
});
