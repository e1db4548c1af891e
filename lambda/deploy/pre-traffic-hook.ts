import type { JsonLogger } from '../observability/logger';
import { probesFromJson, runProbes, type Invocation, type ProbeOutcome } from './probes';

/** What CodeDeploy invokes a BeforeAllowTraffic hook with. */
export interface HookEvent {
  DeploymentId: string;
  LifecycleEventHookExecutionId: string;
}

export type HookStatus = 'Succeeded' | 'Failed';

/** What the hook reaches outside itself: the new version, and CodeDeploy. */
export interface HookPorts {
  /** Invokes the new version (its ARN is the hook's TARGET_VERSION_ARN) with one payload. */
  invoke(payload: string): Promise<Invocation>;
  /** Tells CodeDeploy the outcome of this hook run (PutLifecycleEventHookExecutionStatus). */
  report(event: HookEvent, status: HookStatus): Promise<void>;
  logger: Pick<JsonLogger, 'info' | 'error'>;
}

export interface HookResult {
  status: HookStatus;
  outcomes: ProbeOutcome[];
}

function isHookEvent(event: unknown): event is HookEvent {
  const e = event as Partial<HookEvent> | null;
  return typeof e?.DeploymentId === 'string' && e.DeploymentId !== '' && typeof e.LifecycleEventHookExecutionId === 'string' && e.LifecycleEventHookExecutionId !== '';
}

/**
 * The pre-traffic check (docs/deploying.md#the-pre-traffic-check): sends the
 * new version each probe of `probesJson` (the hook's PROBES), logs one line
 * per probe, and reports Succeeded to CodeDeploy only when every probe
 * passed; anything else, a bad configuration included, reports Failed, so
 * CodeDeploy stops the deployment before any traffic moves. It always
 * reports: a hook that ended without reporting would hold the deployment
 * until CodeDeploy's one-hour timeout.
 */
export function createPreTrafficHook(ports: HookPorts, probesJson: string | undefined, target: string | undefined) {
  return async (event: unknown): Promise<HookResult> => {
    if (!isHookEvent(event)) {
      // Nothing to report to: not CodeDeploy's invocation.
      throw new Error('expected a CodeDeploy lifecycle hook event with DeploymentId and LifecycleEventHookExecutionId');
    }
    const deployment = { deploymentId: event.DeploymentId, target };
    let outcomes: ProbeOutcome[] = [];
    let status: HookStatus = 'Failed';
    try {
      if (!target) throw new Error('TARGET_VERSION_ARN is not set: the stack gives each hook the version it checks');
      outcomes = await runProbes(ports.invoke, probesFromJson(probesJson));
      for (const outcome of outcomes) {
        if (outcome.passed) ports.logger.info('pre-traffic probe', { ...deployment, ...outcome });
        else ports.logger.error('pre-traffic probe', { ...deployment, ...outcome });
      }
      status = outcomes.every((outcome) => outcome.passed) ? 'Succeeded' : 'Failed';
    } catch (error) {
      ports.logger.error('pre-traffic check could not run', { ...deployment, error: error instanceof Error ? error.message : String(error) });
    }
    await ports.report(event, status);
    const failed = outcomes.filter((outcome) => !outcome.passed).map((outcome) => outcome.name);
    ports.logger.info('pre-traffic check', { ...deployment, status, probes: outcomes.length, failed });
    return { status, outcomes };
  };
}
