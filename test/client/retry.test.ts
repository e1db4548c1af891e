import { BASE_BACKOFF_MS, MAX_BACKOFF_MS, parseRetryAfter, retryDelayMs } from '../../client/src/retry';

/** The client's retry rule (docs/contacts-api.md#errors, for clients), on its own. */
const status = (code: number, retryAfterSeconds?: number) => ({ kind: 'status' as const, status: code, retryAfterSeconds });

describe('the retry rule', () => {
  test('a 429 waits exactly Retry-After seconds, 1 when absent', () => {
    expect(retryDelayMs(status(429, 7), 0, 0.99)).toBe(7000);
    expect(retryDelayMs(status(429), 3, 0.5)).toBe(1000);
  });

  test('a 503 waits at least Retry-After, plus a jittered backoff that doubles per retry', () => {
    expect(retryDelayMs(status(503, 1), 0, 0)).toBe(1000 + BASE_BACKOFF_MS / 2);
    expect(retryDelayMs(status(503, 1), 0, 0.999)).toBeLessThanOrEqual(1000 + BASE_BACKOFF_MS);
    expect(retryDelayMs(status(503, 1), 2, 0)).toBe(1000 + (BASE_BACKOFF_MS * 4) / 2);
  });

  test('a network failure waits a jittered backoff, capped', () => {
    expect(retryDelayMs({ kind: 'network' }, 0, 0)).toBe(BASE_BACKOFF_MS / 2);
    expect(retryDelayMs({ kind: 'network' }, 1, 0.999)).toBeLessThanOrEqual(BASE_BACKOFF_MS * 2);
    expect(retryDelayMs({ kind: 'network' }, 30, 0.999)).toBeLessThanOrEqual(MAX_BACKOFF_MS);
  });

  test.each([400, 401, 403, 404, 405, 413, 422, 500, 502, 504])('a %i is not retried', (code) => {
    expect(retryDelayMs(status(code, 1), 0, 0.5)).toBeUndefined();
  });

  test('Retry-After is read as whole seconds; a date or garbage counts as absent', () => {
    expect(parseRetryAfter('3')).toBe(3);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:28:00 GMT')).toBeUndefined();
    expect(parseRetryAfter('-1')).toBeUndefined();
  });
});
