import type { JsonLogger } from '../observability/logger';
import { withinLimit, type Clock } from './clock';

/** What CodeDeploy invokes a lifecycle hook (BeforeAllowTraffic, AfterAllowTraffic) with. */
export interface HookEvent {
  DeploymentId: string;
  LifecycleEventHookExecutionId: string;
}

export type HookStatus = 'Succeeded' | 'Failed';

/** What a hook reads of its Lambda context: how long it has left. */
export interface HookContext {
  getRemainingTimeInMillis(): number;
}

/** What every hook reports through: CodeDeploy's PutLifecycleEventHookExecutionStatus, a logger and the time. */
export interface ReportPorts {
  report(event: HookEvent, status: HookStatus, signal?: AbortSignal): Promise<void>;
  logger: Pick<JsonLogger, 'info' | 'warn' | 'error'>;
  clock: Clock;
}

/** How a report ended: told (after `attempts` calls), or CodeDeploy had closed the hook already. */
export interface Reported {
  attempts: number;
  /** CodeDeploy answered LifecycleEventAlreadyCompleted: the deployment was stopped or rolled back meanwhile, nothing was left to tell. */
  alreadyClosed: boolean;
}

export function isHookEvent(event: unknown): event is HookEvent {
  const e = event as Partial<HookEvent> | null;
  return (
    typeof e?.DeploymentId === 'string' &&
    e.DeploymentId !== '' &&
    typeof e.LifecycleEventHookExecutionId === 'string' &&
    e.LifecycleEventHookExecutionId !== ''
  );
}

export const messageOf = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/**
 * CodeDeploy's answer when the hook's lifecycle event is no longer waiting
 * (the deployment was stopped, by an alarm or by hand, or already reported):
 * not a failure of the hook, and nothing a retry could change.
 */
const ALREADY_CLOSED = new Set(['LifecycleEventAlreadyCompletedException', 'DeploymentAlreadyCompletedException']);
export const isAlreadyClosed = (error: unknown): boolean => error instanceof Error && ALREADY_CLOSED.has(error.name);

/**
 * Reports to CodeDeploy, trying again after any failure (a throttle, the
 * network, an AccessDenied while IAM applies the hook's grant) until
 * `deadline`; then the last failure is thrown, so Lambda records it. An
 * answer that the hook is already closed ends the report at once, logged
 * as what it is (INFO), not as an error.
 */
export async function reportBy(ports: ReportPorts, event: HookEvent, status: HookStatus, deadline: number, what: string): Promise<Reported> {
  const { clock } = ports;
  let pause = 250;
  for (let attempt = 1; ; attempt++) {
    let failure: unknown;
    try {
      const answer = await withinLimit(clock, Math.max(1, deadline - clock.now()), (signal) => ports.report(event, status, signal));
      if (!answer.timedOut) return { attempts: attempt, alreadyClosed: false };
      failure = new Error("no answer from CodeDeploy before the hook's deadline");
    } catch (error) {
      if (isAlreadyClosed(error)) {
        ports.logger.info(`${what} report: CodeDeploy had already closed this hook (the deployment was stopped or rolled back meanwhile)`, {
          deploymentId: event.DeploymentId,
          status,
          attempt,
          answer: messageOf(error),
        });
        return { attempts: attempt, alreadyClosed: true };
      }
      failure = error;
    }
    if (clock.now() + pause >= deadline) throw failure;
    ports.logger.warn(`${what} report failed: tried again`, { deploymentId: event.DeploymentId, status, attempt, error: messageOf(failure) });
    await clock.sleep(pause);
    pause = Math.min(pause * 2, 4000);
  }
}
