import { sha256Hex } from '../kernel/hash';
import { crashFreeRate } from '../ingest/sessions/release-health';
import type { ReleaseAlertSettings } from './settings';

const HOUR_MS = 3_600_000;

/** One hour of one release of one environment, as the tally's write of its counters left it (the stream's image of the release hour item). */
export interface ReleaseHourSnapshot {
  factoryId: string;
  environment: string;
  release: string;
  /** Epoch hour (UTC) the sessions started in. */
  hour: number;
  started: number;
  crashed: number;
}

/** What an hour's counters say of its release: too few sessions to tell, or healthy, or unhealthy under the factory's threshold. */
export type ReleaseVerdict = 'too-few' | 'healthy' | 'unhealthy';

export function releaseVerdict(hour: Pick<ReleaseHourSnapshot, 'started' | 'crashed'>, settings: ReleaseAlertSettings): ReleaseVerdict {
  const rate = crashFreeRate(hour.started, hour.crashed);
  if (rate === null || hour.started < settings.releaseMinSessions) return 'too-few';
  return rate < settings.crashFreeThreshold ? 'unhealthy' : 'healthy';
}

/** What a release alert's payload says (docs/alerts.md#release-alerts): counts and rates of the hour, never a person. */
export interface ReleaseHealthFacts {
  factoryId: string;
  release: string;
  environment: string;
  /** The hour the counters are of: its start, ISO. */
  hourStart: string;
  crashFreeSessions: number;
  sessions: number;
  crashed: number;
  crashFreeThreshold: number;
  minSessions: number;
}

/** The hash that names a release of one environment in ids and keys: any text a sender names makes an id of one shape. */
export const releaseSpellKey = (environment: string, release: string): string => sha256Hex(JSON.stringify([environment, release])).slice(0, 24);

/** A release hour crossing into unhealthy (an alert per release and hour), or into healthy (the end of an unhealthy spell, if one is open). */
export type ReleaseTransition =
  | { kind: 'unhealthy'; alertId: string; spellKey: string; facts: ReleaseHealthFacts }
  | { kind: 'healthy'; spellKey: string; facts: ReleaseHealthFacts };

export const unhealthyAlertId = (spellKey: string, hour: number): string => `release-unhealthy:${spellKey}:${hour}`;
/** A recovery is named by the spell it ends: the hour the spell began. */
export const recoveredAlertId = (spellKey: string, spellHour: number): string => `release-recovered:${spellKey}:${spellHour}`;

/**
 * What one write of a release hour's counters is due for (docs/alerts.md#release-alerts). Pure, from the item's
 * images before and after the write: a verdict that changes in this write. Only the release's last hour counts (the
 * hour of `nowMs` or the one before, whose sessions are still ending): a late update of an older hour alerts nothing.
 * The same record seen twice gives the same answer with the same id, so the alert's conditional put keeps it to one.
 */
export function releaseTransitionOf(
  before: ReleaseHourSnapshot | undefined,
  after: ReleaseHourSnapshot | undefined,
  settings: ReleaseAlertSettings,
  nowMs: number,
): ReleaseTransition | undefined {
  if (!after || after.hour < Math.floor(nowMs / HOUR_MS) - 1) return undefined;
  const was = before ? releaseVerdict(before, settings) : 'too-few';
  const is = releaseVerdict(after, settings);
  if (is === was || is === 'too-few') return undefined;
  const spellKey = releaseSpellKey(after.environment, after.release);
  const facts: ReleaseHealthFacts = {
    factoryId: after.factoryId,
    release: after.release,
    environment: after.environment,
    hourStart: new Date(after.hour * HOUR_MS).toISOString(),
    crashFreeSessions: crashFreeRate(after.started, after.crashed) ?? 1,
    sessions: after.started,
    crashed: Math.min(after.crashed, after.started),
    crashFreeThreshold: settings.crashFreeThreshold,
    minSessions: settings.releaseMinSessions,
  };
  return is === 'unhealthy' ? { kind: 'unhealthy', alertId: unhealthyAlertId(spellKey, after.hour), spellKey, facts } : { kind: 'healthy', spellKey, facts };
}
