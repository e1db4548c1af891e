import { countCall, counting, newCallLog, withCallLog } from '../../../../lambda/infrastructure/observability/call-log';

describe('the call log carried by the async context', () => {
  test('counts each storage call made inside its work, across awaits, with its latency to a tenth of a ms', async () => {
    const log = newCallLog();
    await withCallLog(log, async () => {
      countCall(3.14);
      await new Promise((resolve) => setImmediate(resolve));
      countCall(2);
    });
    expect(log).toEqual({ calls: 2, latenciesMs: [3.1, 2] });
  });

  test('two requests at once each count into their own', async () => {
    const [a, b] = [newCallLog(), newCallLog()];
    await Promise.all([
      withCallLog(a, async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        countCall(1);
      }),
      withCallLog(b, async () => {
        countCall(1);
        countCall(1);
      }),
    ]);
    expect([a.calls, b.calls]).toEqual([1, 2]);
  });

  test('outside any request a call counts nowhere, and the stores know not to time it', () => {
    expect(counting()).toBe(false);
    expect(() => countCall(1)).not.toThrow();
    withCallLog(newCallLog(), () => expect(counting()).toBe(true));
  });
});
