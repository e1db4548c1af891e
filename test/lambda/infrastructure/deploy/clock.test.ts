import { systemClock, withinLimit, type Clock } from '../../../../lambda/infrastructure/deploy/clock';

/** A clock whose sleeps end when the test says (or are aborted), and whose time the test moves. */
function manualClock() {
  const sleepers: { resolve: () => void; ms: number }[] = [];
  const clock: Clock = {
    now: () => 0,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        sleepers.push({ resolve, ms });
        signal?.addEventListener('abort', () => reject(new Error('aborted')));
      }),
  };
  return { clock, wake: () => sleepers.splice(0).forEach((sleeper) => sleeper.resolve()), sleepers };
}

describe('work given a time limit', () => {
  test('its value when it finishes first, and its timer stopped', async () => {
    const { clock, sleepers } = manualClock();
    expect(await withinLimit(clock, 1000, async () => 42)).toEqual({ timedOut: false, value: 42 });
    expect(sleepers.map((sleeper) => sleeper.ms)).toEqual([1000]);
  });

  test('timedOut when the limit comes first, and the work is told to stop', async () => {
    const { clock, wake } = manualClock();
    let aborted = false;
    const bounded = withinLimit(clock, 1000, (signal) => {
      signal.addEventListener('abort', () => (aborted = true));
      return new Promise<never>(() => undefined);
    });
    wake();
    expect(await bounded).toEqual({ timedOut: true });
    expect(aborted).toBe(true);
  });

  test("the work's failure within the limit is thrown as it is", async () => {
    const { clock } = manualClock();
    await expect(withinLimit(clock, 1000, async () => Promise.reject(new RangeError('bad')))).rejects.toThrow(RangeError);
  });
});

test("the system clock's sleep ends early when aborted", async () => {
  const controller = new AbortController();
  const sleeping = systemClock.sleep(60_000, controller.signal);
  controller.abort();
  await expect(sleeping).rejects.toThrow();
  expect(Math.abs(systemClock.now() - Date.now())).toBeLessThan(1000);
});
