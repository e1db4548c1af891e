import { createHookFailureReporter } from '../../../../lambda/infrastructure/deploy/hook-failure';
import { awsError, fakeClock, HOOK_EVENT, lineLogger, reportRecorder } from '../../../support/hook-clock';

/** The hooks' on-failure destination (lambda/infrastructure/deploy/hook-failure.ts): the failure record Lambda hands it. */
function harness(fails?: (call: number) => Error | undefined) {
  const clock = fakeClock();
  const recorder = reportRecorder(clock, fails);
  const { lines, logger } = lineLogger('contacts-hook-failure');
  const run = (record: unknown) => createHookFailureReporter({ report: recorder.report, logger, clock })(record, { getRemainingTimeInMillis: () => 30_000 });
  return { run, lines, ...recorder };
}

const RECORD = {
  version: '1.0',
  requestContext: { functionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:S-PreTrafficHook:$LATEST', condition: 'RetriesExhausted' },
  requestPayload: HOOK_EVENT,
  responsePayload: { errorType: 'Runtime.ImportModuleError', errorMessage: "Cannot find module 'index'" },
};

test('reports Failed for the lifecycle event of the hook that failed, and its error line names the hook and why', async () => {
  const { run, reports, lines } = harness();
  expect(await run(RECORD)).toEqual({ reported: true });
  expect(reports.map((r) => [r.event, r.status])).toEqual([[HOOK_EVENT, 'Failed']]);
  expect(lines[0]).toMatchObject({
    level: 'ERROR',
    deploymentId: 'd-ABC123',
    hook: RECORD.requestContext.functionArn,
    errorType: 'Runtime.ImportModuleError',
  });
});

test('a deployment already stopped is nothing to report, and no error', async () => {
  const { run, calls } = harness(() => awsError('LifecycleEventAlreadyCompletedException'));
  expect(await run(RECORD)).toEqual({ reported: false });
  expect(calls).toHaveLength(1);
});

test('a failure record of something else than a hook invocation is logged, and nothing is reported', async () => {
  const { run, calls, lines } = harness();
  expect(await run({ ...RECORD, requestPayload: { path: '/' } })).toEqual({ reported: false });
  expect(await run(null)).toEqual({ reported: false });
  expect(calls).toEqual([]);
  expect(lines.map((l) => l.level)).toEqual(['ERROR', 'ERROR']);
});
