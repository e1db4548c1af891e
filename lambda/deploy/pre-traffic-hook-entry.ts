import { CodeDeployClient, PutLifecycleEventHookExecutionStatusCommand } from '@aws-sdk/client-codedeploy';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { loggerFromEnv } from '../observability/logger';
import { createPreTrafficHook } from './pre-traffic-hook';

/** The `service` of the hook's log lines. */
export const PRE_TRAFFIC_SERVICE_NAME = 'contacts-pre-traffic-check';

const target = process.env.TARGET_VERSION_ARN;
const lambda = new LambdaClient({});
const codeDeploy = new CodeDeployClient({});
const decoder = new TextDecoder();

/**
 * The pre-traffic hook's entry point (lib/gradual-deployment.ts): one per
 * function, allowed to invoke only the version it checks and to report only
 * to its own deployment group.
 */
export const handler = createPreTrafficHook(
  {
    invoke: async (payload) => {
      const answer = await lambda.send(new InvokeCommand({ FunctionName: target, Payload: new TextEncoder().encode(payload) }));
      return { functionError: answer.FunctionError, payload: answer.Payload ? decoder.decode(answer.Payload) : '' };
    },
    report: async (event, status) => {
      await codeDeploy.send(
        new PutLifecycleEventHookExecutionStatusCommand({
          deploymentId: event.DeploymentId,
          lifecycleEventHookExecutionId: event.LifecycleEventHookExecutionId,
          status,
        }),
      );
    },
    logger: loggerFromEnv(process.env, PRE_TRAFFIC_SERVICE_NAME),
  },
  process.env.PROBES,
  target,
);
