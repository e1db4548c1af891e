/**
 * A factory's alert settings (docs/alerts.md#spike): when the events of one
 * 5-minute bucket make a spike. The threshold is `spikeMultiple` times the
 * issue's rate per 5 minutes over the hour before the bucket, and never
 * less than `spikeFloor`, so a quiet issue's few events are no spike.
 */
export interface AlertSettings {
  spikeMultiple: number;
  spikeFloor: number;
}

export const DEFAULT_ALERT_SETTINGS: Readonly<AlertSettings> = { spikeMultiple: 10, spikeFloor: 20 };
export const SPIKE_MULTIPLE_RANGE = { min: 2, max: 1000 } as const;
export const SPIKE_FLOOR_RANGE = { min: 1, max: 1_000_000 } as const;

/** Settings as stored, the defaults filling what was never set. */
export function settingsOf(stored: Partial<Record<keyof AlertSettings, unknown>> | undefined): AlertSettings {
  const pick = (name: keyof AlertSettings) => {
    const value = stored?.[name];
    return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : DEFAULT_ALERT_SETTINGS[name];
  };
  return { spikeMultiple: pick('spikeMultiple'), spikeFloor: pick('spikeFloor') };
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
