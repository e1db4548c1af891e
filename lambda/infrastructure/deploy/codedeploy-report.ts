import { CodeDeployClient, PutLifecycleEventHookExecutionStatusCommand } from '@aws-sdk/client-codedeploy';
import type { HookEvent, HookStatus } from './hook-report';

// One attempt per call, bounded: every hook retries its report itself until its own deadline (./hook-report.ts).
const codeDeploy = new CodeDeployClient({ maxAttempts: 1, requestHandler: { connectionTimeout: 2000, requestTimeout: 5000 } });

/** Tells CodeDeploy a lifecycle hook's outcome (PutLifecycleEventHookExecutionStatus): the `report` port of every hook's entry. */
export async function reportToCodeDeploy(event: HookEvent, status: HookStatus, signal?: AbortSignal): Promise<void> {
  await codeDeploy.send(
    new PutLifecycleEventHookExecutionStatusCommand({
      deploymentId: event.DeploymentId,
      lifecycleEventHookExecutionId: event.LifecycleEventHookExecutionId,
      status,
    }),
    signal ? { abortSignal: signal } : {},
  );
}
