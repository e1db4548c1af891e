import { periodStartMs } from '../issues/buckets';
import { ISSUE_STATUSES, type IssueStatus } from '../issues/issue';
import type { IssueSnapshot } from './alert';

/**
 * The issue item's attribute holding its events per 5-minute bucket (a map
 * keyed by the bucket's UTC start, "2026-11-26T03:55"), written by the
 * tally (lambda/issues/buckets.ts).
 */
export const FIVE_MINUTE_COUNTS = 'm5';

const ISSUE_KEY = /^issue#(fac_[A-Za-z0-9_-]+)#(iss_[0-9a-f]+)$/;

/** A bucket key as epoch ms: the tally's UTC minute ("2026-11-26T03:55"), or a whole ISO time. */
function bucketStart(key: string): number | undefined {
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(key) ? periodStartMs(key) : Date.parse(key);
  return Number.isNaN(ms) ? undefined : ms;
}

function counts(value: unknown): Record<number, number> {
  const found: Record<number, number> = {};
  if (typeof value !== 'object' || value === null) return found;
  for (const [key, count] of Object.entries(value as Record<string, unknown>)) {
    const start = bucketStart(key);
    if (start !== undefined && typeof count === 'number' && count > 0) found[start] = count;
  }
  return found;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * An issue item's image (a stream record's OldImage or NewImage, unmarshalled)
 * as an alert reads it; undefined for any other item of the reports table,
 * or an image too incomplete to alert on.
 */
export function issueSnapshotOf(image: Record<string, unknown> | undefined): IssueSnapshot | undefined {
  const key = ISSUE_KEY.exec(String(image?.pk ?? ''));
  if (!image || !key) return undefined;
  const [, factoryId = '', issueId = ''] = key;
  const firstSeen = text(image.firstSeen);
  const status = text(image.status);
  if (firstSeen === undefined || !(ISSUE_STATUSES as readonly string[]).includes(status ?? '')) return undefined;
  const firstRelease = text(image.firstRelease);
  const lastRelease = text(image.lastRelease);
  const regressedAt = text(image.regressedAt);
  return {
    factoryId,
    issueId,
    title: text(image.title) ?? '',
    status: status as IssueStatus,
    count: typeof image.count === 'number' ? image.count : 0,
    firstSeen,
    lastSeen: text(image.lastSeen) ?? firstSeen,
    ...(firstRelease === undefined ? {} : { firstRelease }),
    ...(lastRelease === undefined ? {} : { lastRelease }),
    regressions: typeof image.regressions === 'number' ? image.regressions : 0,
    ...(regressedAt === undefined ? {} : { regressedAt }),
    fiveMinute: counts(image[FIVE_MINUTE_COUNTS]),
  };
}
