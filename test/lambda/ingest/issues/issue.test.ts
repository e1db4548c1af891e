import { byLastSeen, changeStatus, isExpired, ISSUE_ID_PATTERN, issueAsOf, issueView, type Issue } from '../../../../lambda/ingest/issues/issue';

const ISSUE: Issue = {
  factoryId: 'fac_a',
  issueId: 'iss_00000000000000000001',
  fingerprint: ['error', 'TypeError'],
  title: 'TypeError: x is undefined',
  count: 3,
  firstSeen: '2026-11-21T09:00:00.000Z',
  lastSeen: '2026-11-26T03:00:00.000Z',
  lastEventId: '00000000-0000-4000-8000-000000000003',
  status: 'open',
  expiresAt: 1_800_000_000,
  counts: { d1: { '2026-11-26': 2, '2026-10-01': 1 } },
  visitors: { sketch: { kind: 'exact', hashes: ['aaaaaaaa', 'bbbbbbbb'] } },
};

describe('an issue', () => {
  test('its id is iss_ and 20 hex characters', () => {
    expect(ISSUE_ID_PATTERN.test(ISSUE.issueId)).toBe(true);
    expect(ISSUE_ID_PATTERN.test('iss_1')).toBe(false);
  });

  test('is expired from its expiry on', () => {
    expect([isExpired(ISSUE, 1_799_999_999), isExpired(ISSUE, 1_800_000_000)]).toEqual([false, true]);
  });

  test('as of now keeps only its recent counts', () => {
    expect(issueAsOf(ISSUE, Date.parse('2026-11-26T04:00:00Z')).counts?.d1).toEqual({ '2026-11-26': 2 });
    expect(issueAsOf({ ...ISSUE, counts: undefined }, 0)).toEqual({ ...ISSUE, counts: undefined });
  });

  test('a status change records when and by whom', () => {
    expect(changeStatus(ISSUE, 'resolved', '2026-11-26T05:00:00.000Z', 'arn:op')).toMatchObject({
      status: 'resolved',
      statusChangedAt: '2026-11-26T05:00:00.000Z',
      statusChangedBy: 'arn:op',
    });
  });

  test('its view counts visitors, never showing their hashes, nor its counts or expiry', () => {
    const view = issueView(ISSUE);
    expect(view).toMatchObject({ issueId: ISSUE.issueId, visitors: 2, visitorsExact: true, count: 3 });
    expect(JSON.stringify(view)).not.toMatch(/aaaaaaaa|expiresAt|counts/);
  });

  test('issues are listed most recently seen first, ties by id descending', () => {
    const list = [
      { lastSeen: '2026-11-01', issueId: 'iss_a' },
      { lastSeen: '2026-11-02', issueId: 'iss_a' },
      { lastSeen: '2026-11-01', issueId: 'iss_b' },
    ].sort(byLastSeen);
    expect(list).toEqual([
      { lastSeen: '2026-11-02', issueId: 'iss_a' },
      { lastSeen: '2026-11-01', issueId: 'iss_b' },
      { lastSeen: '2026-11-01', issueId: 'iss_a' },
    ]);
  });
});
