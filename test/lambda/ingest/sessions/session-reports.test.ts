import {
  addSessionItem,
  emptySessionReport,
  readClientReport,
  readSessionAggregates,
  readSessionUpdate,
} from '../../../../lambda/ingest/sessions/session-reports';

/** What a Sentry `session` or `sessions` item is read as (lambda/ingest/sessions/session-reports.ts). */
const update = (fields: Record<string, unknown> = {}) => ({
  sid: '7d4a1f0e-3c2b-4a5d-9e8f-0a1b2c3d4e5f',
  did: 'user-1',
  init: true,
  started: '2031-03-01T12:00:00.000Z',
  status: 'ok',
  errors: 0,
  attrs: { release: 'web@1.0.0', environment: 'staging' },
  ...fields,
});

test('a session update is read with its sid, user, start, status and errors under its release and environment', () => {
  expect(readSessionUpdate(update())).toEqual({
    sid: '7d4a1f0e-3c2b-4a5d-9e8f-0a1b2c3d4e5f',
    did: 'user-1',
    init: true,
    status: 'ok',
    errors: 0,
    startedMs: Date.parse('2031-03-01T12:00:00.000Z'),
    release: 'web@1.0.0',
    environment: 'staging',
  });
});

test('an update without a release, a sid or a start, or with an unknown status or negative errors, is not read', () => {
  expect(readSessionUpdate(update({ attrs: {} }))).toBeUndefined();
  expect(readSessionUpdate(update({ sid: '' }))).toBeUndefined();
  expect(readSessionUpdate(update({ started: 'yesterday' }))).toBeUndefined();
  expect(readSessionUpdate(update({ status: 'exploded' }))).toBeUndefined();
  expect(readSessionUpdate(update({ errors: -1 }))).toBeUndefined();
  expect(readSessionUpdate([update()])).toBeUndefined();
});

test('the environment defaults to production; a release with an email in it is scrubbed before anything keeps it', () => {
  const read = readSessionUpdate(update({ attrs: { release: 'web@1 for ada@example.com' } }));
  expect(read?.environment).toBe('production');
  expect(read?.release).not.toContain('ada@example.com');
});

test('an aggregates item becomes its rows; a row that cannot be read is counted, an empty one left out', () => {
  const read = readSessionAggregates({
    aggregates: [
      { started: '2031-03-01T12:01:00Z', exited: 3, crashed: 1, did: 'u' },
      { started: '2031-03-01T12:02:00Z', exited: 0 },
      { started: 'never', exited: 1 },
      { started: '2031-03-01T12:03:00Z', errored: -2 },
    ],
    attrs: { release: 'api@2' },
  });
  expect(read.invalid).toBe(2);
  expect(read.aggregates).toEqual([
    { startedMs: Date.parse('2031-03-01T12:01:00Z'), exited: 3, errored: 0, crashed: 1, abnormal: 0, release: 'api@2', environment: 'production', did: 'u' },
  ]);
});

test("items are added to a request's report; what cannot be read is counted as invalid, never thrown on", () => {
  const report = emptySessionReport();
  addSessionItem(report, 'session', update());
  addSessionItem(report, 'session', { sid: 42 });
  addSessionItem(report, 'sessions', { aggregates: 'no' });
  expect(report.updates).toHaveLength(1);
  expect(report.invalid).toBe(2);
});

test('keys a sender names (__proto__, constructor) are plain data', () => {
  const hostile = JSON.parse('{"sid":"s1","started":"2031-03-01T12:00:00Z","attrs":{"release":"r","__proto__":{"environment":"x"}},"constructor":1}');
  expect(readSessionUpdate(hostile)).toMatchObject({ sid: 's1', release: 'r', environment: 'production' });
});

test("a row's unhandled sessions (SDKs 10 and later) count as crashed", () => {
  const read = readSessionAggregates({ aggregates: [{ started: '2031-03-01T12:01:00Z', exited: 1, crashed: 1, unhandled: 2 }], attrs: { release: 'r' } });
  expect(read.aggregates[0]).toMatchObject({ exited: 1, crashed: 3 });
});

test("a client report becomes its discarded counts by reason and category, summed; names not Sentry's are other, bad quantities left out", () => {
  expect(
    readClientReport({
      timestamp: 1,
      discarded_events: [
        { reason: 'ratelimit_backoff', category: 'error', quantity: 3 },
        { reason: 'ratelimit_backoff', category: 'error', quantity: 2 },
        { reason: '<script>', category: 'error', quantity: 1 },
        { reason: 'sample_rate', category: 'span', quantity: -4 },
        { reason: 'sample_rate', category: 'span', quantity: 1.5 },
      ],
    }),
  ).toEqual([
    { reason: 'ratelimit_backoff', category: 'error', quantity: 5 },
    { reason: 'other', category: 'error', quantity: 1 },
  ]);
  expect(readClientReport({ discarded_events: 'none' })).toEqual([]);
  const report = emptySessionReport();
  addSessionItem(report, 'client_report', { discarded_events: [{ reason: 'network_error', category: 'session', quantity: 1 }] });
  expect(report.discarded).toEqual([{ reason: 'network_error', category: 'session', quantity: 1 }]);
});
