import { ALERT_RETENTION_DAYS, DESTINATIONS_MAX, DestinationExistsError, PREVIOUS_SECRET_HOURS } from '../../../lambda/alerts/ports';
import { MAX_ATTEMPTS, RETRY_DELAYS_SECONDS } from '../../../lambda/alerts/retry-schedule';

describe('what the alert stores promise', () => {
  test('a destination added twice under one id is refused, naming it', () => {
    const error = new DestinationExistsError('dst_0000000000000001');
    expect([error.name, error.message]).toEqual(['DestinationExistsError', 'destination dst_0000000000000001 exists already']);
  });

  test("a factory's bounds: 10 destinations, a rotated secret signing for a day, the log kept for 30 days, longer than any delivery's retries", () => {
    expect([DESTINATIONS_MAX, PREVIOUS_SECRET_HOURS, ALERT_RETENTION_DAYS]).toEqual([10, 24, 30]);
    expect(RETRY_DELAYS_SECONDS.reduce((sum, delay) => sum + delay, 0) / 86_400).toBeLessThan(ALERT_RETENTION_DAYS);
    expect(MAX_ATTEMPTS).toBeGreaterThan(1);
  });
});
