import type { JsonLogger } from '../observability/logger';
import { withinLimit, type Clock } from './clock';
import { ACCESS_DENIED_WINDOW_MS, DEADLINE_MARGIN_MS, REPORT_WINDOW_MS } from './hook-timing';
import { probesFromJson, runProbes, type Invoke, type ProbeOutcome } from './probes';

/** What CodeDeploy invokes a BeforeAllowTraffic hook with. */
export interface HookEvent {
  DeploymentId: string;
  LifecycleEventHookExecutionId: string;
}

export type HookStatus = 'Succeeded' | 'Failed';

/** What the hook reads of its Lambda context: how long it has left. */
export interface HookContext {
  getRemainingTimeInMillis(): number;
}

/** What the hook reaches outside itself: the new version, CodeDeploy, and the time. */
export interface HookPorts {
  /** Invokes the new version (its ARN is the hook's TARGET_VERSION_ARN) with one payload. */
  invoke: Invoke;
  /** Tells CodeDeploy the outcome of this hook run (PutLifecycleEventHookExecutionStatus). */
  report(event: HookEvent, status: HookStatus, signal?: AbortSignal): Promise<void>;
  logger: Pick<JsonLogger, 'info' | 'warn' | 'error'>;
  clock: Clock;
}

export interface HookResult {
  status: HookStatus;
  outcomes: ProbeOutcome[];
}

function isHookEvent(event: unknown): event is HookEvent {
  const e = event as Partial<HookEvent> | null;
  return (
    typeof e?.DeploymentId === 'string' &&
    e.DeploymentId !== '' &&
    typeof e.LifecycleEventHookExecutionId === 'string' &&
    e.LifecycleEventHookExecutionId !== ''
  );
}

const messageOf = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/**
 * Reports to CodeDeploy, trying again after any failure (a throttle, the
 * network, an AccessDenied while IAM applies the hook's grant) until
 * `deadline`; then the last failure is thrown, so Lambda records it.
 */
async function reportBy(ports: HookPorts, event: HookEvent, status: HookStatus, deadline: number): Promise<number> {
  const { clock } = ports;
  let pause = 250;
  for (let attempt = 1; ; attempt++) {
    let failure: unknown;
    try {
      const answer = await withinLimit(clock, Math.max(1, deadline - clock.now()), (signal) => ports.report(event, status, signal));
      if (!answer.timedOut) return attempt;
      failure = new Error("no answer from CodeDeploy before the hook's deadline");
    } catch (error) {
      failure = error;
    }
    if (clock.now() + pause >= deadline) throw failure;
    ports.logger.warn('pre-traffic report failed: tried again', { deploymentId: event.DeploymentId, status, attempt, error: messageOf(failure) });
    await clock.sleep(pause);
    pause = Math.min(pause * 2, 4000);
  }
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
    const attempts = await reportBy(ports, event, status, deadline);
    const failed = outcomes.filter((outcome) => !outcome.passed).map((outcome) => outcome.name);
    ports.logger.info('pre-traffic check', {
      ...deployment,
      status,
      probes: outcomes.length,
      failed,
      reportAttempts: attempts,
      ms: Math.round(clock.now() - started),
    });
    return { status, outcomes };
  };
}
