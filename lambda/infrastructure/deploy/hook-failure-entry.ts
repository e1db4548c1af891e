import { CodeDeployClient, PutLifecycleEventHookExecutionStatusCommand } from '@aws-sdk/client-codedeploy';
import { loggerFromEnv } from '../observability/logger';
import { systemClock } from './clock';
import { createHookFailureReporter } from './hook-failure';

/** The `service` of its log lines. */
export const HOOK_FAILURE_SERVICE_NAME = 'contacts-hook-failure';

const codeDeploy = new CodeDeployClient({ maxAttempts: 1, requestHandler: { connectionTimeout: 2000, requestTimeout: 5000 } });

/** The entry point of the hooks' on-failure destination (lib/gradual-deployment.ts): it may only report to the stack's deployment groups. */
export const handler = createHookFailureReporter({
  report: async (event, status, signal) => {
    await codeDeploy.send(
      new PutLifecycleEventHookExecutionStatusCommand({
        deploymentId: event.DeploymentId,
        lifecycleEventHookExecutionId: event.LifecycleEventHookExecutionId,
        status,
      }),
      { abortSignal: signal },
    );
  },
  logger: loggerFromEnv(process.env, HOOK_FAILURE_SERVICE_NAME),
  clock: systemClock,
});
