import { periodStartMs } from '../ingest/issues/buckets';
import { noneAffected } from '../ingest/issues/affected';
import type { Issue, IssueStatus } from '../ingest/issues/issue';
import { visitorCount } from '../ingest/issues/visitors';

/** What happened, as the webhook's `type` says it (docs/alerts.md#the-payload): to an issue, or to a release's health. */
export const ISSUE_ALERT_TYPES = ['issue.created', 'issue.regressed', 'issue.spiking', 'issue.resolved'] as const;
export const RELEASE_ALERT_TYPES = ['release.unhealthy', 'release.recovered'] as const;
export const ALERT_TYPES = [...ISSUE_ALERT_TYPES, ...RELEASE_ALERT_TYPES] as const;
export type IssueAlertType = (typeof ISSUE_ALERT_TYPES)[number];
export type ReleaseAlertType = (typeof RELEASE_ALERT_TYPES)[number];
export type AlertType = (typeof ALERT_TYPES)[number];
export const isReleaseAlertType = (type: AlertType): type is ReleaseAlertType => (RELEASE_ALERT_TYPES as readonly string[]).includes(type);

/** An issue as an alert reads it (snapshotOf): what the payload shows, and its events per 5 minutes by the bucket's start. */
export interface IssueSnapshot {
  factoryId: string;
  issueId: string;
  title: string;
  status: IssueStatus;
  count: number;
  firstSeen: string;
  lastSeen: string;
  firstRelease?: string;
  lastRelease?: string;
  regressions: number;
  regressedAt?: string;
  statusChangedAt?: string;
  /** Who it affects, as counts (docs/report-issues.md#who-is-affected): the payload's `affected`, as `reports issues` has it (none: zeros). */
  affected?: { contacts: number; companies: number; visitors: number; notInCrm: number };
  /** Events per 5-minute bucket: bucket start (epoch ms, UTC) → count. Empty where the item keeps none. */
  fiveMinute: Record<number, number>;
}

/** The issue as an alert reads it: its 5-minute counts keyed by their start (epoch ms), what it never had at zero. */
export function snapshotOf(issue: Issue): IssueSnapshot {
  const { factoryId, issueId, title, status, count, firstSeen, lastSeen, firstRelease, lastRelease, regressedAt, statusChangedAt } = issue;
  const { contacts, companies, notInCrm } = issue.affected ?? noneAffected();
  const fiveMinute: Record<number, number> = {};
  for (const [key, events] of Object.entries(issue.counts?.m5 ?? {})) {
    const start = periodStartMs(key);
    if (!Number.isNaN(start) && typeof events === 'number' && events > 0) fiveMinute[start] = events;
  }
  return {
    factoryId,
    issueId,
    title,
    status,
    count,
    firstSeen,
    lastSeen,
    ...(firstRelease === undefined ? {} : { firstRelease }),
    ...(lastRelease === undefined ? {} : { lastRelease }),
    regressions: issue.regressions ?? 0,
    ...(regressedAt === undefined ? {} : { regressedAt }),
    ...(statusChangedAt === undefined ? {} : { statusChangedAt }),
    affected: { contacts, companies, visitors: visitorCount(issue.visitors).count, notInCrm },
    fiveMinute,
  };
}

export interface SpikeFacts {
  /** The bucket that crossed the threshold: its start, ISO. */
  bucketStart: string;
  events: number;
  threshold: number;
  /** The issue's mean events per 5 minutes over the hour before the bucket. */
  baselinePerFiveMinutes: number;
}

/**
 * One occurrence of something an alert is due for, with an id that names
 * the occurrence (`new:<iss>:<firstSeen>`, `regressed:<iss>:<firstSeen>:<n>`,
 * `spike:<iss>:<bucket>`): whatever the number of stream records that show
 * it, it is stored once under that id.
 */
export interface Alert {
  alertId: string;
  type: IssueAlertType;
  /** When it happened (deterministic, from the issue): the payload's `timestamp`. */
  occurredAt: string;
  issue: IssueSnapshot;
  spike?: SpikeFacts;
  /**
   * Who, read when the alert is first sent (./notify.ts): for issue.resolved the affected people's contact ids (so a
   * customer's backend can tell them it is fixed; ids, never emails), for the others the biggest companies by people.
   */
  people?: { contactIds?: string[]; topCompanies?: { companyId: string; people: number }[] };
}
