import { isHookEvent, reportBy, type HookContext, type ReportPorts } from './hook-report';
import { DEADLINE_MARGIN_MS } from './hook-timing';

/**
 * What Lambda hands an asynchronous invocation's on-failure destination: the
 * request that failed (here CodeDeploy's hook event) and why.
 */
interface FailureRecord {
  requestPayload?: unknown;
  requestContext?: { functionArn?: string; condition?: string };
  responsePayload?: { errorType?: string; errorMessage?: string };
}

/**
 * The hooks' failure destination (docs/deploying.md#a-hook-that-cannot-run):
 * CodeDeploy invokes a hook asynchronously, so a hook that fails before it
 * reports (its bundle does not load, it runs out of memory, it times out)
 * would leave CodeDeploy waiting the hook's full hour. Lambda hands the
 * failed invocation to this function instead, which reports Failed for
 * that lifecycle event at once: the deployment stops and rolls back, and
 * the error line names the hook and why.
 */
export function createHookFailureReporter(ports: ReportPorts) {
  return async (record: unknown, context: HookContext): Promise<{ reported: boolean }> => {
    const failure = record as FailureRecord;
    const event = failure?.requestPayload;
    const facts = {
      hook: failure?.requestContext?.functionArn,
      condition: failure?.requestContext?.condition,
      errorType: failure?.responsePayload?.errorType,
      errorMessage: failure?.responsePayload?.errorMessage,
    };
    if (!isHookEvent(event)) {
      ports.logger.error('a hook failed on an event that is not a CodeDeploy hook invocation: nothing to report', facts);
      return { reported: false };
    }
    ports.logger.error('a deployment hook failed before it reported: reporting Failed for it', { ...facts, deploymentId: event.DeploymentId });
    const deadline = ports.clock.now() + context.getRemainingTimeInMillis() - DEADLINE_MARGIN_MS;
    const { alreadyClosed } = await reportBy(ports, event, 'Failed', deadline, 'hook failure');
    return { reported: !alreadyClosed };
  };
}
