import { DEADLINE_MARGIN_MS, ACCESS_DENIED_WINDOW_MS, REPORT_WINDOW_MS } from './hook-timing';
import { isHookEvent, reportBy, type HookContext, type HookEvent, type HookStatus, type ReportPorts } from './hook-report';
import { probesFromJson, runProbes, type Invoke, type ProbeOutcome } from './probes';

export type { HookContext, HookEvent, HookStatus };

/** What the hook reaches outside itself: the new version, CodeDeploy, and the time. */
export interface HookPorts extends ReportPorts {
  /** Invokes the new version (its ARN is the hook's TARGET_VERSION_ARN) with one payload. */
  invoke: Invoke;
}

export interface HookResult {
  status: HookStatus;
  outcomes: ProbeOutcome[];
}

/**
 * The pre-traffic check (docs/deploying.md#the-pre-traffic-check): sends the
 * new version each probe of `probesJson` (the hook's PROBES), logs one line
 * per probe, and reports Succeeded to CodeDeploy only when every probe
 * passed; anything else, a bad configuration included, reports Failed, so
 * CodeDeploy stops the deployment before any traffic moves.
 *
 * It always reports while it can: its deadline is its remaining time less a
 * margin; the probes stop waiting REPORT_WINDOW_MS before it (a version
 * that never answers fails its probe), and the report is tried again until
 * the deadline. A hook that ended without reporting would hold the
 * deployment for CodeDeploy's one-hour timeout.
 */
export function createPreTrafficHook(ports: HookPorts, probesJson: string | undefined, target: string | undefined) {
  return async (event: unknown, context: HookContext): Promise<HookResult> => {
    if (!isHookEvent(event)) {
      // Nothing to report to: not CodeDeploy's invocation.
      throw new Error('expected a CodeDeploy lifecycle hook event with DeploymentId and LifecycleEventHookExecutionId');
    }
    const { clock } = ports;
    const started = clock.now();
    const deadline = started + context.getRemainingTimeInMillis() - DEADLINE_MARGIN_MS;
    const deployment = { deploymentId: event.DeploymentId, target };
    let outcomes: ProbeOutcome[] = [];
    let status: HookStatus = 'Failed';
    try {
      if (!target) throw new Error('TARGET_VERSION_ARN is not set: the stack gives each hook the version it checks');
      const limits = { clock, until: deadline - REPORT_WINDOW_MS, accessDeniedUntil: started + ACCESS_DENIED_WINDOW_MS };
      outcomes = await runProbes(ports.invoke, probesFromJson(probesJson), limits);
      for (const outcome of outcomes) {
        if (outcome.passed) ports.logger.info('pre-traffic probe', { ...deployment, ...outcome });
        else ports.logger.error('pre-traffic probe', { ...deployment, ...outcome });
      }
      status = outcomes.every((outcome) => outcome.passed) ? 'Succeeded' : 'Failed';
    } catch (error) {
      ports.logger.error('pre-traffic check could not run', { ...deployment, error: error instanceof Error ? error.message : String(error) });
    }
    const { attempts, alreadyClosed } = await reportBy(ports, event, status, deadline, 'pre-traffic');
    const failed = outcomes.filter((outcome) => !outcome.passed).map((outcome) => outcome.name);
    ports.logger.info('pre-traffic check', {
      ...deployment,
      status,
      probes: outcomes.length,
      failed,
      reportAttempts: attempts,
      ...(alreadyClosed ? { alreadyClosed } : {}),
      ms: Math.round(clock.now() - started),
    });
    return { status, outcomes };
  };
}
