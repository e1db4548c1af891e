import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The storage calls made for one request (or one stream batch), as the
 * stores count them: how many, and how long each took (its retries
 * included), for the request's log line and metrics.
 */
export interface CallLog {
  calls: number;
  latenciesMs: number[];
}

/**
 * Where the current request's call log is found: carried by the async
 * context the pipeline (and each consumer's handler) opens around its work,
 * so no port or domain function takes it as a parameter. What it costs:
 * about 0.3 µs per await on Node.js 22, measured in docs/performance.md.
 */
const current = new AsyncLocalStorage<CallLog>();

export const newCallLog = (): CallLog => ({ calls: 0, latenciesMs: [] });

/** Runs `work` with `log` as the call log every storage call inside it counts into. */
export function withCallLog<T>(log: CallLog, work: () => T): T {
  return current.run(log, work);
}

/** Counts one storage call of `latencyMs` into the current call log, if any is open. */
export function countCall(latencyMs: number): void {
  const log = current.getStore();
  if (!log) return;
  log.calls += 1;
  log.latenciesMs.push(Math.round(latencyMs * 10) / 10);
}

/** Whether a call log is open here (a store skips timing its calls when none is). */
export const counting = (): boolean => current.getStore() !== undefined;
