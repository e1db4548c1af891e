/**
 * A factory's alert settings (docs/alerts.md#spike, docs/alerts.md#release-alerts).
 * The spike rule: the events of one 5-minute bucket make a spike at
 * `spikeMultiple` times the rate per 5 minutes over the hour before
 * the bucket, and never less than `spikeFloor`, so a quiet issue's few
 * events are no spike. The release rule: a release's hour is unhealthy when
 * its crash-free sessions fall below `crashFreeThreshold` once it has at
 * least `releaseMinSessions` sessions, so a handful of sessions never alerts.
 */
export interface SpikeSettings {
  spikeMultiple: number;
  spikeFloor: number;
}

export interface ReleaseAlertSettings {
  crashFreeThreshold: number;
  releaseMinSessions: number;
}

export type AlertSettings = SpikeSettings & ReleaseAlertSettings;

export const DEFAULT_ALERT_SETTINGS: Readonly<AlertSettings> = { spikeMultiple: 10, spikeFloor: 20, crashFreeThreshold: 0.99, releaseMinSessions: 100 };
export const SPIKE_MULTIPLE_RANGE = { min: 2, max: 1000 } as const;
export const SPIKE_FLOOR_RANGE = { min: 1, max: 1_000_000 } as const;
/** A crash-free share (0.5 is half the sessions crashing: below it an alert says nothing a team did not know). */
export const CRASH_FREE_THRESHOLD_RANGE = { min: 0.5, max: 1 } as const;
export const RELEASE_MIN_SESSIONS_RANGE = { min: 1, max: 1_000_000 } as const;

const SETTING_NAMES = ['spikeMultiple', 'spikeFloor', 'crashFreeThreshold', 'releaseMinSessions'] as const satisfies readonly (keyof AlertSettings)[];

/** Settings as stored, the defaults filling what was never set (or what no range allows). */
export function settingsOf(stored: Partial<Record<keyof AlertSettings, unknown>> | undefined): AlertSettings {
  const pick = (name: keyof AlertSettings) => {
    const value = stored?.[name];
    const inRange = name !== 'crashFreeThreshold' || (typeof value === 'number' && value <= CRASH_FREE_THRESHOLD_RANGE.max);
    return typeof value === 'number' && Number.isFinite(value) && value > 0 && inRange ? value : DEFAULT_ALERT_SETTINGS[name];
  };
  return Object.fromEntries(SETTING_NAMES.map((name) => [name, pick(name)])) as unknown as AlertSettings;
}

/** Settings as stored, with who last changed them and when (the settings as stored: defaults for what was never set). */
export interface StoredSettings extends AlertSettings {
  updatedAt?: string;
  updatedBy?: string;
}

export function storedSettingsOf(stored: Record<string, unknown> | undefined): StoredSettings {
  return {
    ...settingsOf(stored),
    ...(typeof stored?.updatedAt === 'string' ? { updatedAt: stored.updatedAt } : {}),
    ...(typeof stored?.updatedBy === 'string' ? { updatedBy: stored.updatedBy } : {}),
  };
}
