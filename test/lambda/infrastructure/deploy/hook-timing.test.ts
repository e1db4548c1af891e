import {
  ACCESS_DENIED_WINDOW_MS,
  COLD_START_ALLOWANCE_MS,
  DEADLINE_MARGIN_MS,
  hookTimeoutSeconds,
  probeBudgetMs,
  REPORT_WINDOW_MS,
} from '../../../../lambda/infrastructure/deploy/hook-timing';

describe("a pre-traffic hook's time", () => {
  test('a probe may wait its own timeout and a cold start', () => {
    expect(probeBudgetMs(10_000)).toBe(10_000 + COLD_START_ALLOWANCE_MS);
  });

  test("the hook's timeout is every probe's budget, the AccessDenied window, the report's window and the margin, in whole seconds", () => {
    const expected = 2 * (10_000 + COLD_START_ALLOWANCE_MS) + ACCESS_DENIED_WINDOW_MS + REPORT_WINDOW_MS + DEADLINE_MARGIN_MS;
    expect(hookTimeoutSeconds([10_000, 10_000])).toBe(Math.ceil(expected / 1000));
    expect(hookTimeoutSeconds([10_500])).toBe(Math.ceil((20_500 + ACCESS_DENIED_WINDOW_MS + REPORT_WINDOW_MS + DEADLINE_MARGIN_MS) / 1000));
  });

  test("probes that would need more than Lambda's 15 minutes are refused, saying what to change", () => {
    expect(() => hookTimeoutSeconds(Array(30).fill(30_000))).toThrow(/past Lambda's 900 s: give the probes shorter timeouts or fewer probes/);
  });
});
