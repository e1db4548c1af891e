import { trimEndOf } from '../kernel/text-ends';
import { isReleaseAlertType, type Alert, type AlertType, type IssueAlertType, type IssueSnapshot, type ReleaseAlertType } from './alert';
import type { ReleaseHealthFacts } from './release-triggers';
import { scrubbedTitle } from './scrub';

/** Where the links in payloads point when the stack names no control room address: the app `npm run control-room` serves. */
export const DEFAULT_LINK_BASE = 'http://127.0.0.1:4000';

/** An issue's page in the control room's web app. */
export function issueLink(linkBase: string, issue: Pick<IssueSnapshot, 'factoryId' | 'issueId'>): string {
  return `${trimEndOf(linkBase, '/')}/f/${encodeURIComponent(issue.factoryId)}/reports/issues/${encodeURIComponent(issue.issueId)}`;
}

/**
 * The body of an alert's POST (docs/alerts.md#the-payload): the type, when
 * it happened, and the issue: never a key, an event or anything of a visitor
 * (the title is scrubbed). Made once when the delivery is created, so every
 * retry sends the same bytes under the same webhook-id.
 */
export function alertPayload(alert: Alert, linkBase: string): string {
  const { issue } = alert;
  return JSON.stringify({
    type: alert.type,
    timestamp: alert.occurredAt,
    data: {
      issueId: issue.issueId,
      factoryId: issue.factoryId,
      title: scrubbedTitle(issue.title),
      count: issue.count,
      status: issue.status,
      release: issue.lastRelease ?? null,
      firstRelease: issue.firstRelease ?? null,
      firstSeen: issue.firstSeen,
      lastSeen: issue.lastSeen,
      link: issueLink(linkBase, issue),
      affected: issue.affected ?? { contacts: 0, companies: 0, visitors: 0, notInCrm: 0 },
      ...(alert.people?.topCompanies ? { topCompanies: alert.people.topCompanies } : {}),
      ...(alert.people?.contactIds ? { contactIds: alert.people.contactIds } : {}),
      ...(alert.type === 'issue.regressed' ? { regressions: issue.regressions, regressedAt: issue.regressedAt ?? issue.lastSeen } : {}),
      ...(alert.spike ? { spike: alert.spike } : {}),
    },
  });
}

/** A release's page in the control room's web app. */
export function releaseLink(linkBase: string, facts: Pick<ReleaseHealthFacts, 'factoryId' | 'release' | 'environment'>): string {
  const query = new URLSearchParams({ release: facts.release, environment: facts.environment });
  return `${trimEndOf(linkBase, '/')}/f/${encodeURIComponent(facts.factoryId)}/reports/releases?${query.toString()}`;
}

/** A release health alert: the type, when, and the hour's counts and rate beside the factory's rule (docs/alerts.md#release-alerts). */
export interface ReleaseAlert {
  alertId: string;
  type: ReleaseAlertType;
  occurredAt: string;
  health: ReleaseHealthFacts;
}

/**
 * The body of a release alert's POST: the release, its environment, the hour's crash-free share of sessions, its
 * sessions and crashes, and the threshold and minimum that made the rule. Counts only: nothing of a person.
 */
export function releaseAlertPayload(alert: ReleaseAlert, linkBase: string): string {
  const { health } = alert;
  return JSON.stringify({
    type: alert.type,
    timestamp: alert.occurredAt,
    data: {
      factoryId: health.factoryId,
      release: health.release,
      environment: health.environment,
      hourStart: health.hourStart,
      crashFreeSessions: health.crashFreeSessions,
      sessions: health.sessions,
      crashed: health.crashed,
      threshold: health.crashFreeThreshold,
      minSessions: health.minSessions,
      link: releaseLink(linkBase, health),
    },
  });
}

/** The example a "send a test" posts: the type asked for, a made-up issue or release, and `"test": true`. */
export function testPayload(type: AlertType, factoryId: string, at: Date, linkBase: string): string {
  const body = JSON.parse(isReleaseAlertType(type) ? testReleaseBody(type, factoryId, at, linkBase) : testIssueBody(type, factoryId, at, linkBase)) as {
    data: Record<string, unknown>;
  };
  return JSON.stringify({ ...body, data: { ...body.data, test: true } });
}

function testReleaseBody(type: ReleaseAlertType, factoryId: string, at: Date, linkBase: string): string {
  const hourStart = new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000).toISOString();
  const unhealthy = type === 'release.unhealthy';
  const health: ReleaseHealthFacts = {
    factoryId,
    release: 'test',
    environment: 'production',
    hourStart,
    crashFreeSessions: unhealthy ? 0.95 : 0.995,
    sessions: 200,
    crashed: unhealthy ? 10 : 1,
    crashFreeThreshold: 0.99,
    minSessions: 100,
  };
  return releaseAlertPayload({ alertId: 'test', type, occurredAt: at.toISOString(), health }, linkBase);
}

function testIssueBody(type: IssueAlertType, factoryId: string, at: Date, linkBase: string): string {
  const iso = at.toISOString();
  const issue: IssueSnapshot = {
    factoryId,
    issueId: 'iss_00000000000000000000',
    title: 'TypeError: a test alert from the control room',
    status: 'open',
    count: type === 'issue.spiking' ? 240 : 1,
    firstSeen: iso,
    lastSeen: iso,
    lastRelease: 'test',
    regressions: type === 'issue.regressed' ? 1 : 0,
    ...(type === 'issue.regressed' ? { regressedAt: iso } : {}),
    affected: { contacts: 2, companies: 1, visitors: 3, notInCrm: 0 },
    fiveMinute: {},
  };
  const people =
    type === 'issue.resolved'
      ? { contactIds: ['ct_0000000000000001', 'ct_0000000000000002'] }
      : { topCompanies: [{ companyId: 'co_0000000000000001', people: 2 }] };
  const spike = type === 'issue.spiking' ? { bucketStart: iso, events: 240, threshold: 20, baselinePerFiveMinutes: 0 } : undefined;
  return alertPayload({ alertId: 'test', type, occurredAt: iso, issue, people, ...(spike ? { spike } : {}) }, linkBase);
}
