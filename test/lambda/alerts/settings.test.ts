import { DEFAULT_ALERT_SETTINGS, settingsOf, storedSettingsOf } from '../../../lambda/alerts/settings';

describe("a factory's spike settings", () => {
  test('the defaults fill what was never set: 10 times the hour before, never under 20', () => {
    expect(settingsOf(undefined)).toEqual({ spikeMultiple: 10, spikeFloor: 20, crashFreeThreshold: 0.99, releaseMinSessions: 100 });
    expect(settingsOf({ spikeMultiple: 4 })).toEqual({ ...DEFAULT_ALERT_SETTINGS, spikeMultiple: 4 });
  });

  test('a stored value that is not a positive number counts as never set', () => {
    expect(settingsOf({ spikeMultiple: 'x', spikeFloor: -3 })).toEqual(DEFAULT_ALERT_SETTINGS);
    expect(settingsOf({ spikeMultiple: Number.NaN, spikeFloor: 0 })).toEqual(DEFAULT_ALERT_SETTINGS);
  });

  test('as stored, with who changed them last and when', () => {
    expect(storedSettingsOf({ spikeFloor: 50, updatedAt: '2026-11-21T09:00:00.000Z', updatedBy: 'arn:op', other: 1 })).toEqual({
      spikeMultiple: 10,
      spikeFloor: 50,
      crashFreeThreshold: 0.99,
      releaseMinSessions: 100,
      updatedAt: '2026-11-21T09:00:00.000Z',
      updatedBy: 'arn:op',
    });
  });
});

describe("a factory's release rule settings", () => {
  test('as set, and a stored threshold above 1 (no share) counts as never set', () => {
    expect(settingsOf({ crashFreeThreshold: 0.95, releaseMinSessions: 30 })).toMatchObject({ crashFreeThreshold: 0.95, releaseMinSessions: 30 });
    expect(settingsOf({ crashFreeThreshold: 1.5, releaseMinSessions: 0 })).toMatchObject({ crashFreeThreshold: 0.99, releaseMinSessions: 100 });
  });
});
