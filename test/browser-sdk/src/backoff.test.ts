import fc from 'fast-check';
import { backoffDelay, retried, retryable, retryAfterJitter, retryAfterMs, retryWait } from '../../../browser-sdk/src/backoff';

describe('retry waits of the browser SDK', () => {
  test('the backoff doubles from the base, jittered between half and all of it', () => {
    expect([0, 1, 2, 3].map((attempt) => backoffDelay(attempt, 1000, 60_000, () => 0))).toEqual([500, 1000, 2000, 4000]);
    expect([0, 1, 2, 3].map((attempt) => backoffDelay(attempt, 1000, 60_000, () => 1))).toEqual([1000, 2000, 4000, 8000]);
  });

  test('the backoff never exceeds its cap nor falls under half of it once reached, whatever the attempt (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 120_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, base, max, random) => {
          const delay = backoffDelay(attempt, base, max, () => random);
          const ceiling = Math.min(max, base * 2 ** Math.min(attempt, 30));
          expect(delay).toBeGreaterThanOrEqual(Math.floor(ceiling / 2));
          expect(delay).toBeLessThanOrEqual(Math.max(max, 1));
        },
      ),
    );
  });

  test('Retry-After in seconds or as an HTTP date; nothing usable is undefined', () => {
    const now = Date.parse('2026-11-25T10:00:00Z');
    expect(retryAfterMs('7', now)).toBe(7000);
    expect(retryAfterMs('Wed, 25 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs(null, now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
  });

  test('every refusal counts toward the tries: 429, 503, 408, other 5xx and network failures are retried; other answers are not', () => {
    expect([undefined, 408, 429, 500, 502, 503, 504].map(retryable)).toEqual([true, true, true, true, true, true, true]);
    expect([200, 202, 400, 401, 403, 413, 415, 422].map(retryable)).toEqual([false, false, false, false, false, false, false, false]);
  });

  test('a 429 waits its Retry-After plus a jitter of up to half of it, or up to 1 s when that is more', () => {
    const timing = { retryBaseMs: 1000, retryMaxMs: 60_000 };
    expect(retryWait(429, '2', 1, timing, 0, () => 0)).toBe(2000);
    expect(retryWait(429, '2', 1, timing, 0, () => 0.5)).toBe(2500);
    expect(retryWait(429, '30', 3, timing, 0, () => 0.5)).toBe(37_500);
    // Without a usable Retry-After, and for every other refusal, the backoff of that try.
    expect(retryWait(429, null, 2, timing, 0, () => 1)).toBe(backoffDelay(1, 1000, 60_000, () => 1));
    expect(retryWait(503, '1', 3, timing, 0, () => 0)).toBe(backoffDelay(2, 1000, 60_000, () => 0));
    expect(retryWait(undefined, null, 1, timing, 0, () => 1)).toBe(1000);
  });

  test("a 429's wait is never shorter than Retry-After nor longer than it plus max(1 s, half of it) (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3600 }),
        fc.integer({ min: 1, max: 4 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (seconds, tries, random) => {
          const wait = retryWait(429, String(seconds), tries, { retryBaseMs: 1000, retryMaxMs: 60_000 }, 0, () => random);
          expect(wait).toBeGreaterThanOrEqual(seconds * 1000);
          expect(wait).toBeLessThanOrEqual(seconds * 1000 + Math.max(1000, (seconds * 1000) / 2));
        },
      ),
    );
  });

  test('visitors refused in the same instant with the same Retry-After come back spread over at least a second', () => {
    let seed = 1;
    // A small linear congruential generator: the same spread on every run.
    const random = () => ((seed = (seed * 16_807) % 2_147_483_647) - 1) / 2_147_483_646;
    const returns = Array.from({ length: 1000 }, () => 1000 + retryAfterJitter(1000, random));
    const perTenth = new Map<number, number>();
    for (const at of returns) perTenth.set(Math.floor(at / 100), (perTenth.get(Math.floor(at / 100)) ?? 0) + 1);
    // Between 1 s and 2 s, over every tenth of that second, none holding a fifth of the visitors.
    expect([Math.min(...returns) >= 1000, Math.max(...returns) <= 2000]).toEqual([true, true]);
    expect(perTenth.size).toBeGreaterThanOrEqual(10);
    expect(Math.max(...perTenth.values())).toBeLessThan(200);
  });
});

describe('a single request tried by the rule (submitFeatureRequest)', () => {
  const rule = { retryBaseMs: 1000, retryMaxMs: 60_000, maxRetries: 3 };
  /** Answers in turn (the last one again once they run out), the waits asked for recorded instead of waited. */
  function scripted(answers: ({ status: number; retryAfter: string | null } | undefined)[]) {
    const sent: number[] = [];
    const waits: number[] = [];
    const send = async () => {
      sent.push(sent.length + 1);
      return answers[Math.min(sent.length, answers.length) - 1];
    };
    const sleep = async (ms: number) => {
      waits.push(ms);
    };
    return {
      sent,
      waits,
      run: () =>
        retried(
          send,
          rule,
          sleep,
          () => 0,
          () => 0,
        ),
    };
  }

  test('a 429 waits its Retry-After (plus its jitter), a 503 and a network failure the backoff, then the same request goes again', async () => {
    const request = scripted([{ status: 429, retryAfter: '3' }, { status: 503, retryAfter: null }, undefined, { status: 201, retryAfter: null }]);
    expect(await request.run()).toEqual({ status: 201, retryAfter: null });
    expect(request.sent).toHaveLength(4);
    expect(request.waits).toEqual([3000, backoffDelay(1, 1000, 60_000, () => 0), backoffDelay(2, 1000, 60_000, () => 0)]);
  });

  test('a request refused every time is tried 1 + maxRetries times, each after its Retry-After, and answers the last refusal', async () => {
    const request = scripted([{ status: 429, retryAfter: '2' }]);
    expect(await request.run()).toEqual({ status: 429, retryAfter: '2' });
    expect(request.sent).toHaveLength(1 + rule.maxRetries);
    expect(request.waits).toEqual([2000, 2000, 2000]);
  });

  test('an answer the rule does not retry (a success, a 4xx other than 408 and 429) ends it at once', async () => {
    for (const status of [201, 200, 400, 401, 403, 422]) {
      const request = scripted([{ status, retryAfter: '5' }]);
      expect((await request.run())?.status).toBe(status);
      expect(request.sent).toHaveLength(1);
      expect(request.waits).toEqual([]);
    }
  });
});
