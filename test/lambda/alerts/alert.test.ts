import { ALERT_TYPES, snapshotOf } from '../../../lambda/alerts/alert';
import type { Issue } from '../../../lambda/ingest/issues/issue';

const ISSUE = {
  factoryId: 'fac_a',
  issueId: 'iss_00000000000000000001',
  title: 'TypeError: x is undefined',
  status: 'open',
  count: 12,
  firstSeen: '2026-11-21T09:00:00.000Z',
  lastSeen: '2026-11-21T09:12:00.000Z',
  lastRelease: 'web@2',
  counts: { m5: { '2026-11-21T09:00': 5, '2026-11-21T09:05': 0, '2026-11-21T09:10': 7 } },
} as unknown as Issue;

describe('an issue as an alert reads it', () => {
  test('what the payload shows, regressions 0 when it never regressed, and no release it does not have', () => {
    const snapshot = snapshotOf(ISSUE);
    expect(snapshot).toMatchObject({
      factoryId: 'fac_a',
      issueId: ISSUE.issueId,
      title: ISSUE.title,
      status: 'open',
      count: 12,
      lastRelease: 'web@2',
      regressions: 0,
    });
    expect(snapshot).not.toHaveProperty('firstRelease');
    expect(snapshot).not.toHaveProperty('regressedAt');
  });

  test('its 5-minute counts by bucket start (epoch ms), leaving out empty buckets', () => {
    expect(snapshotOf(ISSUE).fiveMinute).toEqual({ [Date.parse('2026-11-21T09:00:00Z')]: 5, [Date.parse('2026-11-21T09:10:00Z')]: 7 });
  });

  test('an issue keeping no 5-minute counts has none', () => {
    expect(snapshotOf({ ...ISSUE, counts: undefined } as unknown as Issue).fiveMinute).toEqual({});
  });
});

test('an alert is one of four issue kinds or two release kinds, as the webhook names them', () => {
  expect(ALERT_TYPES).toEqual(['issue.created', 'issue.regressed', 'issue.spiking', 'issue.resolved', 'release.unhealthy', 'release.recovered']);
});
