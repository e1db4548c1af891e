import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { loggerFromEnv } from '../observability/logger';
import { systemClock } from './clock';
import { reportToCodeDeploy } from './codedeploy-report';
import { createPreTrafficHook } from './pre-traffic-hook';

/** The `service` of the hook's log lines. */
export const PRE_TRAFFIC_SERVICE_NAME = 'contacts-pre-traffic-check';

const target = process.env.TARGET_VERSION_ARN;
// The hook bounds each call by its own deadline (an abort signal: lambda/infrastructure/deploy/pre-traffic-hook.ts). Invoke keeps the
// SDK's retries of a throttled or dropped call (a probe is safe to send twice); the report is retried by the hook itself.
const lambda = new LambdaClient({});
const decoder = new TextDecoder();

/**
 * The pre-traffic hook's entry point (lib/gradual-deployment.ts): one per
 * function, allowed to invoke only the version it checks and to report only
 * to its own deployment group.
 */
export const handler = createPreTrafficHook(
  {
    invoke: async (payload, signal) => {
      const answer = await lambda.send(new InvokeCommand({ FunctionName: target, Payload: new TextEncoder().encode(payload) }), { abortSignal: signal });
      return { functionError: answer.FunctionError, payload: answer.Payload ? decoder.decode(answer.Payload) : '' };
    },
    report: reportToCodeDeploy,
    logger: loggerFromEnv(process.env, PRE_TRAFFIC_SERVICE_NAME),
    clock: systemClock,
  },
  process.env.PROBES,
  target,
);
