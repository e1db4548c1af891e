import { InvalidReportError, KeyRevokedError, LimitedError } from '../../../lambda/ingest/errors';

describe("the ingest API's own errors", () => {
  test('a report refused whole says how many events it covers (0 when the body had none)', () => {
    expect(new InvalidReportError('events must be a list')).toMatchObject({ name: 'InvalidReportError', rejectedEvents: 0 });
    expect(new InvalidReportError('too many events', 21).rejectedEvents).toBe(21);
  });

  test('a limit that refused names itself, when to come back, and how many events were stored before it', () => {
    expect(new LimitedError('over the issue limit', 'issue', 7, 3)).toMatchObject({ name: 'LimitedError', limit: 'issue', retryAfterSeconds: 7, stored: 3 });
    expect(new LimitedError('over the key limit', 'key', 1).stored).toBe(0);
  });

  test('a key revoked while the request ran is its own error', () => {
    expect(new KeyRevokedError('revoked').name).toBe('KeyRevokedError');
  });
});
