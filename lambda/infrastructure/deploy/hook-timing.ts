/**
 * How long a pre-traffic hook may take, from its probes (docs/deploying.md#the-pre-traffic-check).
 * Shared by the stack, which sets the hook's timeout from these numbers, and
 * the hook, which keeps to them: it reports before its own timeout whatever
 * the new version does. Pure: no AWS or CDK types.
 */

/** Lambda's init phase (a cold start) runs before, and outside, the function's own timeout: at most 10 s. */
export const COLD_START_ALLOWANCE_MS = 10_000;

/**
 * How long an AccessDenied on the new version is retried: the hook's grant
 * to invoke it is written in the same stack update, and IAM takes seconds,
 * now and then a minute, to apply it everywhere.
 */
export const ACCESS_DENIED_WINDOW_MS = 60_000;

/** Kept for the report to CodeDeploy and its retries after the probes, however long they ran. */
export const REPORT_WINDOW_MS = 30_000;

/** The report is given up this long before Lambda's own timeout, so the hook's last log line is written. */
export const DEADLINE_MARGIN_MS = 2_000;

/** Lambda's longest timeout. */
export const LAMBDA_MAX_TIMEOUT_MS = 900_000;

/** The longest one probe may wait for its answer: its invocation's own timeout, and a cold start before it. */
export const probeBudgetMs = (probeTimeoutMs: number): number => probeTimeoutMs + COLD_START_ALLOWANCE_MS;

/**
 * The hook's timeout, in whole seconds: every probe waiting out its whole
 * budget, the AccessDenied window once, then the report's window and the
 * margin. Throws when that is past Lambda's longest timeout (give the probes
 * shorter timeouts, or fewer probes).
 */
export function hookTimeoutSeconds(probeTimeoutsMs: readonly number[]): number {
  const total = probeTimeoutsMs.reduce((sum, ms) => sum + probeBudgetMs(ms), 0) + ACCESS_DENIED_WINDOW_MS + REPORT_WINDOW_MS + DEADLINE_MARGIN_MS;
  if (total > LAMBDA_MAX_TIMEOUT_MS) {
    throw new Error(
      `a pre-traffic hook for these probes would need ${Math.ceil(total / 1000)} s, past Lambda's ${LAMBDA_MAX_TIMEOUT_MS / 1000} s: give the probes shorter timeouts or fewer probes`,
    );
  }
  return Math.ceil(total / 1000);
}

/** How often the post-traffic hook reads the release's alarms during its bake. */
export const BAKE_POLL_MS = 30_000;

/** One read of the alarms is given up after this long (and tried again at the next poll). */
export const ALARM_READ_MS = 10_000;

/** The longest bake a post-traffic hook can hold within Lambda's 15 minutes, with its last read and its report. */
export const MAX_BAKE_MINUTES = 14;

/**
 * The post-traffic hook's timeout, in whole seconds: the bake, one more read
 * of the alarms after it, the report's window and the margin. Throws when
 * that is past Lambda's longest timeout.
 */
export function postTrafficHookTimeoutSeconds(bakeSeconds: number): number {
  const total = bakeSeconds * 1000 + ALARM_READ_MS + REPORT_WINDOW_MS + DEADLINE_MARGIN_MS;
  if (total > LAMBDA_MAX_TIMEOUT_MS) {
    throw new Error(
      `a bake of ${bakeSeconds} s needs a hook of ${Math.ceil(total / 1000)} s, past Lambda's ${LAMBDA_MAX_TIMEOUT_MS / 1000} s: at most ${MAX_BAKE_MINUTES} minutes`,
    );
  }
  return Math.ceil(total / 1000);
}
