import { ALARM_READ_MS, BAKE_POLL_MS, DEADLINE_MARGIN_MS, postTrafficHookTimeoutSeconds } from '../../../../lambda/infrastructure/deploy/hook-timing';
import { createPostTrafficHook } from '../../../../lambda/infrastructure/deploy/post-traffic-hook';
import { awsError, fakeClock, HOOK_EVENT, lineLogger, reportRecorder, T0 } from '../../../support/hook-clock';

/**
 * The bake (lambda/infrastructure/deploy/post-traffic-hook.ts): the release's alarms read every BAKE_POLL_MS for
 * BAKE_SECONDS, on an injected clock, with CloudWatch's answers chosen per read.
 */
const ALARMS = ['S-deploy-api-errors-v8', 'S-deploy-api-5xx-rate-v8'];
const BAKE_SECONDS = 600;

function harness(states: (read: number, at: number) => Promise<Record<string, string>>, reportFails?: (call: number) => Error | undefined) {
  const clock = fakeClock();
  const recorder = reportRecorder(clock, reportFails);
  const { lines, logger } = lineLogger('contacts-bake');
  const readsAt: number[] = [];
  const ports = {
    alarmStates: (names: string[]) => {
      readsAt.push(clock.now());
      return states(readsAt.length, clock.now() - T0).then((answer) => Object.fromEntries(names.flatMap((n) => (answer[n] ? [[n, answer[n]]] : []))));
    },
    report: recorder.report,
    logger,
    clock,
  };
  const remaining = postTrafficHookTimeoutSeconds(BAKE_SECONDS) * 1000;
  const run = (given: { alarms?: string | undefined; bake?: string | undefined; event?: unknown } = {}) => {
    const { alarms, bake, event } = { alarms: JSON.stringify(ALARMS), bake: String(BAKE_SECONDS), event: HOOK_EVENT, ...given };
    return createPostTrafficHook(ports, alarms, bake)(event, { getRemainingTimeInMillis: () => remaining - (clock.now() - T0) });
  };
  return { run, clock, readsAt, lines, ...recorder, deadline: T0 + remaining - DEADLINE_MARGIN_MS };
}

const all = (state: string) => async () => Object.fromEntries(ALARMS.map((name) => [name, state]));

test('reports Succeeded after the whole bake with no alarm in ALARM, judged by a read taken after the bake ended', async () => {
  const { run, reports, readsAt, lines } = harness(all('OK'));
  expect(await run()).toEqual({ status: 'Succeeded', reads: 21 });
  expect(readsAt.map((at) => at - T0)).toEqual(Array.from({ length: 21 }, (_, i) => i * BAKE_POLL_MS));
  expect(reports.map((r) => [r.status, r.at - T0])).toEqual([['Succeeded', BAKE_SECONDS * 1000]]);
  expect(lines.at(-1)).toMatchObject({ level: 'INFO', message: 'bake', status: 'Succeeded', deploymentId: 'd-ABC123' });
});

test('no data is no evidence against a release: alarms in INSUFFICIENT_DATA pass the bake', async () => {
  const { run } = harness(all('INSUFFICIENT_DATA'));
  expect((await run()).status).toBe('Succeeded');
});

test('reports Failed at the first read that finds an alarm in ALARM, naming it, without waiting out the bake', async () => {
  const { run, reports, lines } = harness(async (_, at) => ({ [ALARMS[0]!]: 'OK', [ALARMS[1]!]: at >= 4 * BAKE_POLL_MS ? 'ALARM' : 'OK' }));
  expect(await run()).toEqual({ status: 'Failed', problem: `in ALARM: ${ALARMS[1]}`, reads: 5 });
  expect(reports.map((r) => [r.status, r.at - T0])).toEqual([['Failed', 4 * BAKE_POLL_MS]]);
  expect(lines.at(-1)).toMatchObject({ level: 'ERROR', message: 'bake', status: 'Failed', problem: `in ALARM: ${ALARMS[1]}` });
});

test('a read that fails or hangs is tried again at the next poll; the bake still passes on the reads that answer', async () => {
  const { run, lines } = harness(async (read) => {
    if (read === 2) throw awsError('ThrottlingException', 'Rate exceeded');
    if (read === 3) return new Promise<Record<string, string>>(() => undefined);
    return all('OK')();
  });
  expect((await run()).status).toBe('Succeeded');
  expect(lines.filter((l) => l.level === 'WARN').map((l) => l.error)).toEqual(['ThrottlingException: Rate exceeded', `no answer within ${ALARM_READ_MS} ms`]);
});

test('when no read answers after the bake, the release cannot be judged: Failed, reported before the deadline', async () => {
  const { run, reports, deadline } = harness(async (_, at) => {
    if (at >= BAKE_SECONDS * 1000) throw awsError('ServiceUnavailable');
    return all('OK')();
  });
  expect(await run()).toMatchObject({ status: 'Failed', problem: 'could not read the release alarms after the bake: the release cannot be judged' });
  expect(reports[0]!.at).toBeLessThan(deadline);
});

test('an alarm CloudWatch does not know fails the bake: a release is never judged by fewer alarms than it has', async () => {
  const { run } = harness(async () => ({ [ALARMS[0]!]: 'OK' }));
  expect(await run()).toMatchObject({ status: 'Failed', problem: `no such alarm: ${ALARMS[1]}` });
});

test.each([
  ['no alarm names', undefined, '600', /ALARM_NAMES is not set/],
  ['an empty list', '[]', '600', /JSON list of alarm names/],
  ['a bake that is not a number', JSON.stringify(ALARMS), 'ten', /BAKE_SECONDS must be a whole number/],
])('reports Failed, reading nothing, when its configuration has %s', async (_, alarms, bake, message) => {
  const { run, reports, readsAt, lines } = harness(all('OK'));
  await run({ alarms, bake });
  expect([readsAt, reports.map((r) => r.status)]).toEqual([[], ['Failed']]);
  expect(lines.find((l) => l.message === 'bake could not run')!.error).toMatch(message);
});

test('a deployment stopped meanwhile ("already completed") ends the bake quietly: an INFO line, no retry, no error', async () => {
  const { run, calls, lines } = harness(all('OK'), () => awsError('LifecycleEventAlreadyCompletedException'));
  expect((await run()).status).toBe('Succeeded');
  expect(calls).toHaveLength(1);
  expect(lines.at(-1)).toMatchObject({ message: 'bake', alreadyClosed: true });
});

test('refuses an event that is not a CodeDeploy hook invocation, reading and reporting nothing', async () => {
  const { run, reports, readsAt } = harness(all('OK'));
  await expect(run({ event: { DeploymentId: 'd-1' } })).rejects.toThrow(/LifecycleEventHookExecutionId/);
  expect([reports, readsAt]).toEqual([[], []]);
});
