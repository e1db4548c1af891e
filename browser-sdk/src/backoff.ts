/**
 * The SDK's retry rule (docs/browser-sdk.md#the-sdks-retry-rule), as pure
 * functions: the transport applies them, and the storm benchmark imports
 * them from here to send as the SDK does. A batch is tried at most
 * 1 + `maxRetries` times (4 by default), whatever refused it: a 429 counts
 * like a 503, so a storm of refusals cannot become a storm of retries.
 */

/** True when an answer's status (undefined: a network failure) is worth another try of the same events. */
export const retryable = (status: number | undefined): boolean => status === undefined || status === 408 || status === 429 || status >= 500;

/**
 * The wait before retrying a request that met a 503, a 408, another 5xx or a
 * network failure: exponential from `baseMs`, capped at `maxMs`, and
 * jittered (half fixed, half random) so that the pages of a site that all
 * lost the API at once do not come back all at once.
 */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Milliseconds a `Retry-After` header asks for (whole seconds, or an HTTP date); undefined when it says nothing usable. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

/**
 * What a 429's wait adds to its `Retry-After`: a random share of half the
 * wait, and of at least 1 s. Retry-After is whole seconds, so every visitor
 * refused in the same second is told the same number; without this they
 * would all come back in the same instant and be refused together again.
 * Half the wait keeps a long wait's return spread as wide as its cause.
 */
export const retryAfterJitter = (waitMs: number, random: () => number = Math.random): number => Math.round(random() * Math.max(1000, waitMs / 2));

/** The timings of the rule (the SDK's options of the same names). */
export interface RetryTiming {
  retryBaseMs: number;
  retryMaxMs: number;
}

/**
 * The wait before the next try of events whose try number `tries` (1 for
 * the first) met `status` (undefined: a network failure) with that
 * `Retry-After`: a 429's Retry-After plus its jitter, else the backoff.
 */
export function retryWait(
  status: number | undefined,
  retryAfter: string | null,
  tries: number,
  timing: RetryTiming,
  now: number,
  random: () => number = Math.random,
): number {
  const asked = status === 429 ? retryAfterMs(retryAfter, now) : undefined;
  return asked === undefined ? backoffDelay(tries - 1, timing.retryBaseMs, timing.retryMaxMs, random) : asked + retryAfterJitter(asked, random);
}

/** The rule whole: its timings and how many tries follow the first (the SDK's options of the same names). */
export interface RetryRule extends RetryTiming {
  maxRetries: number;
}

/**
 * One request tried by the rule, the same body each time: sent again while
 * its answer (undefined: a network failure) is one the rule retries and
 * tries remain (1 + `maxRetries` in all), each after retryWait's wait (a
 * 429's Retry-After honoured). The last answer, whatever it is. The clock
 * (`sleep`, `now`, `random`) is the tests' to give.
 */
export async function retried<A extends { status: number; retryAfter: string | null }>(
  send: () => Promise<A | undefined>,
  rule: RetryRule,
  sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
  now = Date.now,
  random = Math.random,
): Promise<A | undefined> {
  for (let tries = 1; ; tries += 1) {
    const answer = await send();
    if (!retryable(answer?.status) || tries > rule.maxRetries) return answer;
    await sleep(retryWait(answer?.status, answer?.retryAfter ?? null, tries, rule, now(), random));
  }
}
