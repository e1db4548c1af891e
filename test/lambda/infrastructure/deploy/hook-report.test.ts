import { isAlreadyClosed, isHookEvent, reportBy } from '../../../../lambda/infrastructure/deploy/hook-report';
import { awsError, fakeClock, HOOK_EVENT, lineLogger, reportRecorder, T0 } from '../../../support/hook-clock';

/** How every hook tells CodeDeploy its outcome (lambda/infrastructure/deploy/hook-report.ts), on an injected clock. */
function harness(fails?: (call: number) => Error | undefined) {
  const clock = fakeClock();
  const recorder = reportRecorder(clock, fails);
  const { lines, logger } = lineLogger('hook-report-test');
  const report = (deadline = T0 + 30_000) => reportBy({ report: recorder.report, logger, clock }, HOOK_EVENT, 'Succeeded', deadline, 'bake');
  return { ...recorder, lines, clock, report };
}

test('a report CodeDeploy takes at once is one call', async () => {
  const { report, reports } = harness();
  expect(await report()).toEqual({ attempts: 1, alreadyClosed: false });
  expect(reports.map((r) => r.status)).toEqual(['Succeeded']);
});

test('a failed report is tried again, waiting longer each time, and each failure is a WARN line', async () => {
  const { report, calls, lines } = harness((call) => (call <= 3 ? awsError('ThrottlingException', 'Rate exceeded') : undefined));
  expect(await report()).toEqual({ attempts: 4, alreadyClosed: false });
  expect(calls.map((at) => at - T0)).toEqual([0, 250, 750, 1750]);
  expect(lines.map((l) => [l.level, l.message, l.error])).toEqual(
    Array(3).fill(['WARN', 'bake report failed: tried again', 'ThrottlingException: Rate exceeded']),
  );
});

test('"already completed" from CodeDeploy ends the report at once, as an INFO line: the deployment was stopped meanwhile, nothing to retry', async () => {
  const { report, calls, lines } = harness(() => awsError('LifecycleEventAlreadyCompletedException', 'The lifecycle event is already completed'));
  expect(await report()).toEqual({ attempts: 1, alreadyClosed: true });
  expect(calls).toHaveLength(1);
  expect(lines).toEqual([expect.objectContaining({ level: 'INFO', message: expect.stringMatching(/^bake report: CodeDeploy had already closed this hook/) })]);
});

test('a report that cannot get through by the deadline throws the last failure, so Lambda records the error', async () => {
  const { report, calls, clock } = harness(() => awsError('AccessDeniedException'));
  await expect(report(T0 + 10_000)).rejects.toThrow('AccessDeniedException');
  expect(calls.every((at) => at < T0 + 10_000)).toBe(true);
  expect(clock.now()).toBeLessThan(T0 + 10_000);
});

test('a hook event has both CodeDeploy ids; the "already completed" answers are told apart from failures', () => {
  expect(isHookEvent(HOOK_EVENT)).toBe(true);
  for (const event of [null, {}, { DeploymentId: 'd-1' }, { DeploymentId: '', LifecycleEventHookExecutionId: 'x' }]) expect(isHookEvent(event)).toBe(false);
  expect(isAlreadyClosed(awsError('DeploymentAlreadyCompletedException'))).toBe(true);
  expect(isAlreadyClosed(awsError('ThrottlingException'))).toBe(false);
  expect(isAlreadyClosed('LifecycleEventAlreadyCompletedException')).toBe(false);
});
