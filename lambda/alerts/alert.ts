import type { IssueStatus } from '../issues/issue';

/** What happened to an issue, as the webhook's `type` says it (../shared contract: "Alert deliveries"). */
export const ALERT_TYPES = ['issue.created', 'issue.regressed', 'issue.spiking'] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

/** An issue as an alert reads it from the issue item's stream image. */
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
  /** Events per 5-minute bucket: bucket start (epoch ms, UTC) → count. Empty where the item keeps none. */
  fiveMinute: Record<number, number>;
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
  type: AlertType;
  /** When it happened (deterministic, from the issue): the payload's `timestamp`. */
  occurredAt: string;
  issue: IssueSnapshot;
  spike?: SpikeFacts;
}
