import { releaseTransitionOf, releaseVerdict, type ReleaseHourSnapshot } from '../../../lambda/alerts/release-triggers';
import { DEFAULT_ALERT_SETTINGS } from '../../../lambda/alerts/settings';

const HOUR = 493_000;
const NOW = HOUR * 3_600_000 + 20 * 60_000;
const settings = { crashFreeThreshold: 0.99, releaseMinSessions: 100 };

const hour = (started: number, crashed: number, fields: Partial<ReleaseHourSnapshot> = {}): ReleaseHourSnapshot => ({
  factoryId: 'fac_rel',
  environment: 'production',
  release: 'web@2.0.0',
  hour: HOUR,
  started,
  crashed,
  ...fields,
});

describe('the verdict of a release hour', () => {
  test('the defaults are a 99 % crash-free threshold after 100 sessions', () => {
    expect(DEFAULT_ALERT_SETTINGS).toMatchObject(settings);
  });

  test('fewer sessions than the minimum tell nothing, however many crashed', () => {
    expect(releaseVerdict({ started: 99, crashed: 99 }, settings)).toBe('too-few');
  });

  test('below the threshold is unhealthy, at it healthy', () => {
    expect(releaseVerdict({ started: 200, crashed: 3 }, settings)).toBe('unhealthy');
    expect(releaseVerdict({ started: 200, crashed: 2 }, settings)).toBe('healthy');
  });

  test("the factory's own threshold and minimum are the ones applied", () => {
    expect(releaseVerdict({ started: 10, crashed: 2 }, { crashFreeThreshold: 0.9, releaseMinSessions: 10 })).toBe('unhealthy');
    expect(releaseVerdict({ started: 10, crashed: 1 }, { crashFreeThreshold: 0.9, releaseMinSessions: 10 })).toBe('healthy');
  });
});

describe('what one write of a release hour is due for', () => {
  test('crossing below the threshold is release.unhealthy, named by the release and hour, with the facts the payload needs', () => {
    const transition = releaseTransitionOf(hour(150, 1), hour(160, 3), settings, NOW);
    expect(transition).toMatchObject({
      kind: 'unhealthy',
      alertId: expect.stringMatching(new RegExp(`^release-unhealthy:[0-9a-f]{24}:${HOUR}$`)),
      facts: {
        factoryId: 'fac_rel',
        release: 'web@2.0.0',
        environment: 'production',
        hourStart: new Date(HOUR * 3_600_000).toISOString(),
        sessions: 160,
        crashed: 3,
        crashFreeSessions: 1 - 3 / 160,
        crashFreeThreshold: 0.99,
        minSessions: 100,
      },
    });
  });

  test('a write that leaves the verdict as it was is due for nothing: an unhealthy hour alerts once, not per batch', () => {
    expect(releaseTransitionOf(hour(160, 3), hour(170, 4), settings, NOW)).toBeUndefined();
    expect(releaseTransitionOf(hour(150, 0), hour(160, 0), settings, NOW)).toBeUndefined();
  });

  test('the same record seen twice gives the same alert id', () => {
    const first = releaseTransitionOf(hour(90, 0), hour(120, 5), settings, NOW);
    const again = releaseTransitionOf(hour(90, 0), hour(120, 5), settings, NOW);
    expect(first).toEqual(again);
  });

  test('reaching the minimum already unhealthy alerts; reaching it healthy is a healthy transition (a recovery if a spell is open)', () => {
    expect(releaseTransitionOf(hour(99, 5), hour(100, 5), settings, NOW)?.kind).toBe('unhealthy');
    expect(releaseTransitionOf(undefined, hour(100, 5), settings, NOW)?.kind).toBe('unhealthy');
    expect(releaseTransitionOf(hour(99, 0), hour(100, 0), settings, NOW)?.kind).toBe('healthy');
    expect(releaseTransitionOf(hour(160, 3), hour(400, 3), settings, NOW)?.kind).toBe('healthy');
  });

  test('below the minimum nothing is due, even at a 0 % crash-free share', () => {
    expect(releaseTransitionOf(hour(10, 0), hour(50, 50), settings, NOW)).toBeUndefined();
  });

  test('only the last hour counts: a late update of an hour two hours ago alerts nothing; the previous hour still does', () => {
    expect(releaseTransitionOf(undefined, hour(200, 50, { hour: HOUR - 2 }), settings, NOW)).toBeUndefined();
    expect(releaseTransitionOf(undefined, hour(200, 50, { hour: HOUR - 1 }), settings, NOW)?.kind).toBe('unhealthy');
  });

  test('a release named like an object key is data: its id keeps one shape', () => {
    const transition = releaseTransitionOf(undefined, hour(200, 50, { release: '__proto__', environment: 'constructor' }), settings, NOW);
    expect(transition?.facts.release).toBe('__proto__');
    expect(transition?.kind === 'unhealthy' && transition.alertId).toMatch(/^release-unhealthy:[0-9a-f]{24}:\d+$/);
  });
});
