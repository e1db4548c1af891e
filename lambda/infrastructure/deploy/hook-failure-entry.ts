import { loggerFromEnv } from '../observability/logger';
import { systemClock } from './clock';
import { reportToCodeDeploy } from './codedeploy-report';
import { createHookFailureReporter } from './hook-failure';

/** The `service` of its log lines. */
export const HOOK_FAILURE_SERVICE_NAME = 'contacts-hook-failure';

/** The entry point of the hooks' on-failure destination (lib/gradual-deployment.ts): it may only report to the stack's deployment groups. */
export const handler = createHookFailureReporter({
  report: reportToCodeDeploy,
  logger: loggerFromEnv(process.env, HOOK_FAILURE_SERVICE_NAME),
  clock: systemClock,
});
