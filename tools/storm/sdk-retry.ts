import { retryable, retryWait } from '../../browser-sdk/src/backoff';
import { DEFAULTS } from '../../browser-sdk/src/defaults';

/**
 * Sending as the browser SDK sends (docs/browser-sdk.md#the-sdks-retry-rule),
 * for the tests and the storm benchmark: the SDK's own retry rule (its pure
 * functions, imported), so that what they measure is what visitors' pages do.
 */

/** One try's answer: its status (undefined: no answer), its Retry-After, and whatever the caller keeps of it. */
export interface TryAnswer<T> {
  status: number | undefined;
  retryAfter: string | null;
  value: T;
}

export interface SdkSendOutcome<T> {
  /** The last answer. */
  last: TryAnswer<T>;
  /** Every answer, in order. */
  answers: TryAnswer<T>[];
  /** True when the last answer was a success (2xx); false when the SDK gave up (it drops the events then). */
  delivered: boolean;
}

export interface SdkSendOptions {
  /** Tries in all: 1 + the SDK's maxRetries. */
  maxTries?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** How to wait (tests may scale time). */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Sends the same request until it succeeds or the SDK's rule gives up. */
export async function sendAsTheSdk<T>(attempt: () => Promise<TryAnswer<T>>, options: SdkSendOptions = {}): Promise<SdkSendOutcome<T>> {
  const maxTries = options.maxTries ?? DEFAULTS.maxRetries + 1;
  const timing = { retryBaseMs: options.retryBaseMs ?? DEFAULTS.retryBaseMs, retryMaxMs: options.retryMaxMs ?? DEFAULTS.retryMaxMs };
  const sleep = options.sleep ?? realSleep;
  const answers: TryAnswer<T>[] = [];
  for (let tries = 1; ; tries += 1) {
    const answer = await attempt();
    answers.push(answer);
    const ok = answer.status !== undefined && answer.status >= 200 && answer.status < 300;
    if (ok || !retryable(answer.status) || tries >= maxTries) return { last: answer, answers, delivered: ok };
    await sleep(retryWait(answer.status, answer.retryAfter, tries, timing, Date.now(), options.random));
  }
}
