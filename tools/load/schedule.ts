/**
 * Open-loop pacing: request i is due at start + i / rate, whether or not
 * earlier ones were answered, so a slow server gets the same steady rate
 * (and its slowness shows in latency measured from the due time, not hidden
 * by a client that waits).
 */
export interface Pacing {
  dispatched: number;
  /** How late dispatches were against their due time: the generator's own hold on the rate. */
  lagP99Ms: number;
  lagMaxMs: number;
}

export function paceAt(rate: number, durationMs: number, fire: (index: number, dueAt: number) => void): Promise<Pacing> {
  const total = Math.floor((rate * durationMs) / 1000);
  const interval = 1000 / rate;
  const start = performance.now();
  const lags: number[] = [];
  let index = 0;
  return new Promise((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (index < total && start + index * interval <= now) {
        const due = start + index * interval;
        lags.push(now - due);
        fire(index, due);
        index += 1;
      }
      if (index >= total) {
        lags.sort((a, b) => a - b);
        resolve({
          dispatched: index,
          lagP99Ms: lags[Math.floor(lags.length * 0.99)] ?? 0,
          lagMaxMs: lags[lags.length - 1] ?? 0,
        });
        return;
      }
      setTimeout(tick, Math.max(0, Math.min(10, start + index * interval - performance.now())));
    };
    tick();
  });
}
