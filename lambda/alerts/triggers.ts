import type { Alert, IssueSnapshot, SpikeFacts } from './alert';
import type { SpikeSettings } from './settings';

/** Length of a spike bucket, and the baseline before it: the hour of 12 buckets. */
export const BUCKET_MS = 5 * 60_000;
export const BASELINE_BUCKETS = 12;

/** The issue's mean events per 5 minutes over the hour before `bucket`. */
export function baselineBefore(counts: Record<number, number>, bucket: number): number {
  let sum = 0;
  for (let back = 1; back <= BASELINE_BUCKETS; back += 1) sum += counts[bucket - back * BUCKET_MS] ?? 0;
  return sum / BASELINE_BUCKETS;
}

/** Events in `bucket` that make a spike: the multiple of the baseline, never under the floor. */
export function spikeThreshold(counts: Record<number, number>, bucket: number, settings: SpikeSettings): number {
  return Math.max(settings.spikeFloor, Math.ceil(settings.spikeMultiple * baselineBefore(counts, bucket)));
}

/**
 * The alerts one write of an issue item is due for, from its images before
 * and after (docs/alerts.md#what-triggers-an-alert). Pure: the same record
 * seen twice gives the same alerts with the same ids, so storing each alert
 * with a conditional put under its id makes one alert per occurrence.
 *
 * - issue.created: the item is new, or replaced an expired one: its first event comes after the expired life's
 *   last. First seen also moves back when an earlier event is counted late (the tally counts each stream shard on
 *   its own, so two containers' first events can arrive in either order): the same life, no new alert;
 * - issue.regressed: `regressions` grew (a resolved issue got an event), one per step (the
 *   id names the issue's life by its firstSeen: an issue that expired and came back counts anew);
 * - issue.spiking: a 5-minute bucket reaches its threshold in this write and
 *   was under it before; never for an ignored issue;
 * - issue.resolved: the write resolved it (an operator's status change).
 */
export function alertsOf(before: IssueSnapshot | undefined, after: IssueSnapshot | undefined, settings: SpikeSettings): Alert[] {
  if (!after) return [];
  const alerts: Alert[] = [];
  const { issueId } = after;
  const created = !before || after.firstSeen > before.lastSeen;
  if (created) alerts.push({ alertId: `new:${issueId}:${after.firstSeen}`, type: 'issue.created', occurredAt: after.firstSeen, issue: after });

  const regressionsBefore = created ? 0 : before.regressions;
  for (let n = regressionsBefore + 1; n <= after.regressions; n += 1) {
    alerts.push({
      alertId: `regressed:${issueId}:${after.firstSeen}:${n}`,
      type: 'issue.regressed',
      occurredAt: after.regressedAt ?? after.lastSeen,
      issue: after,
    });
  }

  // Resolved by an operator in this write: the people affected can be told it is fixed.
  if (before && before.status !== 'resolved' && after.status === 'resolved') {
    const at = after.statusChangedAt ?? after.lastSeen;
    alerts.push({ alertId: `resolved:${issueId}:${after.firstSeen}:${at}`, type: 'issue.resolved', occurredAt: at, issue: after });
  }

  if (after.status !== 'ignored') {
    for (const [key, events] of Object.entries(after.fiveMinute)) {
      const bucket = Number(key);
      const threshold = spikeThreshold(after.fiveMinute, bucket, settings);
      const eventsBefore = created ? 0 : (before.fiveMinute[bucket] ?? 0);
      if (events >= threshold && eventsBefore < threshold) {
        const bucketStart = new Date(bucket).toISOString();
        const spike: SpikeFacts = { bucketStart, events, threshold, baselinePerFiveMinutes: Math.round(baselineBefore(after.fiveMinute, bucket) * 100) / 100 };
        alerts.push({ alertId: `spike:${issueId}:${bucketStart}`, type: 'issue.spiking', occurredAt: bucketStart, issue: after, spike });
      }
    }
  }
  return alerts;
}
