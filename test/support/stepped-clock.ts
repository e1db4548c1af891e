/**
 * Time that passes only while everyone waits: a clock for tests whose
 * outcome depends on how long callers wait between tries (Retry-After, a
 * bucket that refills by the second), not on how fast this machine answers.
 *
 * Work done inside `busy()` takes no time on this clock. When nothing is
 * busy, the clock jumps to the earliest `sleep()` due and wakes it (and any
 * other due then). A loaded machine makes the run slower, never different:
 * a request that takes 2 s of real time still costs 0 ms of the clock.
 * After `release()` the clock goes on with real time from where it stood,
 * for what runs afterwards on its own (a stream consumer finishing).
 */
export interface SteppedClock {
  now(): number;
  /** Resolves once the clock reaches now() + ms. */
  sleep(ms: number): Promise<void>;
  /** Runs `work` with the clock held still until it settles. */
  busy<T>(work: () => Promise<T>): Promise<T>;
  /** From now on the clock follows real time. */
  release(): void;
}

export function steppedClock(start = Date.now()): SteppedClock {
  let at = start;
  let releasedAt: number | undefined;
  let inFlight = 0;
  let stepQueued = false;
  const sleepers: { due: number; wake: () => void }[] = [];

  /** Once every promise reaction of what just settled has run (a next try registers its sleep or its work): step if idle. */
  const step = () => {
    stepQueued = false;
    if (inFlight > 0 || sleepers.length === 0) return;
    at = Math.max(at, Math.min(...sleepers.map((sleeper) => sleeper.due)));
    for (const sleeper of sleepers.filter((one) => one.due <= at)) {
      sleepers.splice(sleepers.indexOf(sleeper), 1);
      sleeper.wake();
    }
  };
  const queueStep = () => {
    if (stepQueued || releasedAt !== undefined) return;
    stepQueued = true;
    setImmediate(step);
  };

  return {
    now: () => (releasedAt === undefined ? at : at + (Date.now() - releasedAt)),
    sleep(ms) {
      if (releasedAt !== undefined) return new Promise((resolve) => setTimeout(resolve, ms));
      return new Promise((wake) => {
        sleepers.push({ due: at + ms, wake });
        queueStep();
      });
    },
    async busy(work) {
      inFlight += 1;
      try {
        return await work();
      } finally {
        inFlight -= 1;
        queueStep();
      }
    },
    release() {
      releasedAt = Date.now();
      for (const sleeper of sleepers.splice(0)) setTimeout(sleeper.wake, Math.max(0, sleeper.due - at));
    },
  };
}
