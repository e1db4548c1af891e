import { setTimeout as wait } from 'node:timers/promises';

/** Time as the hook sees it: injected, so tests run its deadlines without waiting them out. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Resolves after `ms`; settles early (resolved or rejected) once `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => wait(Math.max(0, ms), undefined, signal ? { signal } : {}),
};

/** The outcome of work given a time limit: its value, or `timedOut` when the limit came first. */
export type Bounded<T> = { timedOut: false; value: T } | { timedOut: true };

/**
 * Runs `work` for at most `ms`: when the limit comes first, `work`'s signal
 * aborts (the SDK call it passed the signal to is cancelled) and the answer
 * is `timedOut`. A failure of `work` within the limit is thrown as it is.
 */
export async function withinLimit<T>(clock: Clock, ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<Bounded<T>> {
  const abortWork = new AbortController();
  const stopTimer = new AbortController();
  const timer = clock.sleep(ms, stopTimer.signal).then(
    (): Bounded<T> => ({ timedOut: true }),
    (): Bounded<T> => ({ timedOut: true }),
  );
  try {
    return await Promise.race([work(abortWork.signal).then((value): Bounded<T> => ({ timedOut: false, value })), timer]);
  } finally {
    stopTimer.abort();
    abortWork.abort();
  }
}
