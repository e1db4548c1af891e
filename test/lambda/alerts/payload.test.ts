import type { Alert } from '../../../lambda/alerts/alert';
import { alertPayload, DEFAULT_LINK_BASE, issueLink, releaseAlertPayload, testPayload } from '../../../lambda/alerts/payload';

const ISSUE = {
  factoryId: 'fac_a',
  issueId: 'iss_00000000000000000001',
  title: 'TypeError: failed for ada@example.com',
  status: 'open' as const,
  count: 3,
  firstSeen: '2026-11-21T09:00:00.000Z',
  lastSeen: '2026-11-21T09:10:00.000Z',
  regressions: 1,
  regressedAt: '2026-11-21T09:10:00.000Z',
  fiveMinute: {},
};

describe("an alert's payload", () => {
  test("the type, when it happened, and the issue with its title scrubbed and a link to its page: never a visitor's data", () => {
    const alert: Alert = { alertId: 'new:x', type: 'issue.created', occurredAt: ISSUE.firstSeen, issue: ISSUE };
    expect(JSON.parse(alertPayload(alert, 'https://control.example.com/'))).toEqual({
      type: 'issue.created',
      timestamp: ISSUE.firstSeen,
      data: {
        issueId: ISSUE.issueId,
        factoryId: 'fac_a',
        title: 'TypeError: failed for <email>',
        count: 3,
        status: 'open',
        release: null,
        firstRelease: null,
        firstSeen: ISSUE.firstSeen,
        lastSeen: ISSUE.lastSeen,
        link: 'https://control.example.com/f/fac_a/reports/issues/iss_00000000000000000001',
        // Who it affects: counts (an issue counted before them, zeros), never a person's data.
        affected: { contacts: 0, companies: 0, visitors: 0, notInCrm: 0 },
      },
    });
  });

  test('issue.resolved lists the affected contact ids; the others their biggest companies; both the counts', () => {
    const affected = { contacts: 2, companies: 1, visitors: 5, notInCrm: 0 };
    const resolved = JSON.parse(
      alertPayload(
        { alertId: 'x', type: 'issue.resolved', occurredAt: ISSUE.lastSeen, issue: { ...ISSUE, affected }, people: { contactIds: ['ct_0000000000000001'] } },
        DEFAULT_LINK_BASE,
      ),
    ).data;
    expect([resolved.affected, resolved.contactIds, resolved.topCompanies]).toEqual([affected, ['ct_0000000000000001'], undefined]);
    const created = JSON.parse(
      alertPayload(
        {
          alertId: 'y',
          type: 'issue.created',
          occurredAt: ISSUE.firstSeen,
          issue: ISSUE,
          people: { topCompanies: [{ companyId: 'co_0000000000000001', people: 2 }] },
        },
        DEFAULT_LINK_BASE,
      ),
    ).data;
    expect([created.topCompanies, created.contactIds]).toEqual([[{ companyId: 'co_0000000000000001', people: 2 }], undefined]);
  });

  test('a regression adds how many and when; a spike its facts', () => {
    const regressed = JSON.parse(alertPayload({ alertId: 'r', type: 'issue.regressed', occurredAt: ISSUE.lastSeen, issue: ISSUE }, DEFAULT_LINK_BASE));
    expect(regressed.data).toMatchObject({ regressions: 1, regressedAt: ISSUE.regressedAt });
    const spike = { bucketStart: ISSUE.lastSeen, events: 240, threshold: 20, baselinePerFiveMinutes: 2 };
    expect(
      JSON.parse(alertPayload({ alertId: 's', type: 'issue.spiking', occurredAt: ISSUE.lastSeen, issue: ISSUE, spike }, DEFAULT_LINK_BASE)).data.spike,
    ).toEqual(spike);
  });

  test('a link escapes what it is made of, and takes a base with or without its slash', () => {
    expect(issueLink('http://127.0.0.1:4000//', { factoryId: 'fac_a', issueId: 'iss_1' })).toBe('http://127.0.0.1:4000/f/fac_a/reports/issues/iss_1');
    expect(issueLink('http://h', { factoryId: 'fac_a b', issueId: 'iss/1' })).toBe('http://h/f/fac_a%20b/reports/issues/iss%2F1');
  });

  test('a test payload is the type asked for on a made-up issue, marked as a test', () => {
    const body = JSON.parse(testPayload('issue.spiking', 'fac_a', new Date(ISSUE.firstSeen), DEFAULT_LINK_BASE));
    expect(body).toMatchObject({
      type: 'issue.spiking',
      data: { factoryId: 'fac_a', issueId: 'iss_00000000000000000000', test: true, spike: { events: 240 } },
    });
  });
});

describe('a release alert', () => {
  const health = {
    factoryId: 'fac_acme',
    release: 'web@1.0 beta',
    environment: 'staging',
    hourStart: '2026-11-25T14:00:00.000Z',
    crashFreeSessions: 0.95,
    sessions: 200,
    crashed: 10,
    crashFreeThreshold: 0.99,
    minSessions: 100,
  };

  test("its body holds the release, its environment, the hour's crash-free share and sessions, the rule, and a link to the release's page", () => {
    const body = JSON.parse(
      releaseAlertPayload({ alertId: 'a', type: 'release.unhealthy', occurredAt: '2026-11-25T14:31:07.000Z', health }, 'https://control.example.com/'),
    );
    expect(body).toEqual({
      type: 'release.unhealthy',
      timestamp: '2026-11-25T14:31:07.000Z',
      data: {
        factoryId: 'fac_acme',
        release: 'web@1.0 beta',
        environment: 'staging',
        hourStart: '2026-11-25T14:00:00.000Z',
        crashFreeSessions: 0.95,
        sessions: 200,
        crashed: 10,
        threshold: 0.99,
        minSessions: 100,
        link: 'https://control.example.com/f/fac_acme/reports/releases?release=web%401.0+beta&environment=staging',
      },
    });
  });

  test('a test of a release type is a made-up release with "test": true, no issue', () => {
    const body = JSON.parse(testPayload('release.recovered', 'fac_acme', new Date('2026-11-25T14:31:07.000Z'), 'http://127.0.0.1:4000'));
    expect(body).toMatchObject({ type: 'release.recovered', data: { release: 'test', threshold: 0.99, test: true } });
    expect(body.data.issueId).toBeUndefined();
  });
});
