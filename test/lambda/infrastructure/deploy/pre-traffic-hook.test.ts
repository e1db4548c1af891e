import { ACCESS_DENIED_WINDOW_MS, DEADLINE_MARGIN_MS, REPORT_WINDOW_MS } from '../../../../lambda/infrastructure/deploy/hook-timing';
import { createPreTrafficHook, type HookEvent, type HookStatus } from '../../../../lambda/infrastructure/deploy/pre-traffic-hook';
import type { Invocation, Probe } from '../../../../lambda/infrastructure/deploy/probes';
import { JsonLogger } from '../../../../lambda/infrastructure/observability/logger';
import { fakeClock, T0 } from '../../../support/hook-clock';

/**
 * The hook's own logic, with the two AWS calls it makes (Lambda Invoke of the
 * new version, CodeDeploy's PutLifecycleEventHookExecutionStatus) as ports
 * and its time as an injected clock: what it reports, when, and what it logs.
 * The clock's waits end at once and move its time on, so a deadline minutes
 * away is reached without waiting. test/deploy/probes.test.ts sends the
 * stack's probes to the real handlers.
 */
const EVENT: HookEvent = { DeploymentId: 'd-ABC123', LifecycleEventHookExecutionId: 'exec-42' };
const TARGET = 'arn:aws:lambda:eu-west-1:123456789012:function:ContactsService-Api:7';
/** The hook's remaining time when CodeDeploy invokes it: as the stack sizes it for two 10 s probes. */
const REMAINING_MS = 2 * 20_000 + ACCESS_DENIED_WINDOW_MS + REPORT_WINDOW_MS + DEADLINE_MARGIN_MS;
const DEADLINE = T0 + REMAINING_MS - DEADLINE_MARGIN_MS;

const PROBES: Probe[] = [
  { name: 'no key: 401', event: { path: '/a' }, expectStatus: 401, timeoutMs: 10_000 },
  { name: 'canary: 200', event: { path: '/b' }, expectStatus: 200, timeoutMs: 10_000 },
];

const denied = () => Object.assign(new Error('User is not authorized to perform: lambda:InvokeFunction'), { name: 'AccessDeniedException' });

function harness(answer: (payload: string, call: number) => Promise<Invocation>, reportFails: (call: number) => Error | undefined = () => undefined) {
  const clock = fakeClock();
  const reports: { event: HookEvent; status: HookStatus; at: number }[] = [];
  const reportCalls: number[] = [];
  const invoked: string[] = [];
  const lines: Record<string, unknown>[] = [];
  const write = (text: string) => lines.push(JSON.parse(text) as Record<string, unknown>);
  const ports = {
    invoke: (payload: string) => {
      invoked.push(payload);
      return answer(payload, invoked.length);
    },
    report: async (event: HookEvent, status: HookStatus) => {
      reportCalls.push(clock.now());
      const failure = reportFails(reportCalls.length);
      if (failure) throw failure;
      reports.push({ event, status, at: clock.now() });
    },
    logger: new JsonLogger({ service: 'contacts-pre-traffic-check', level: 'INFO', out: write, err: write }),
    clock,
  };
  /** One hook run; each setting absent from `given` is the good one. */
  const run = (given: { probes?: string | undefined; target?: string | undefined; event?: unknown } = {}) => {
    const { probes, target, event } = { probes: JSON.stringify(PROBES), target: TARGET, event: EVENT, ...given };
    return createPreTrafficHook(ports, probes, target)(event, { getRemainingTimeInMillis: () => REMAINING_MS - (clock.now() - T0) });
  };
  return { run, clock, reports, reportCalls, invoked, lines };
}

const answering =
  (statuses: Record<string, number>) =>
  async (payload: string): Promise<Invocation> => ({
    payload: JSON.stringify({ statusCode: statuses[(JSON.parse(payload) as { path: string }).path], body: '{}' }),
  });
const GOOD = answering({ '/a': 401, '/b': 200 });

test('reports Succeeded for its deployment when every probe gets the status it expects, after sending each in order', async () => {
  const { run, reports, invoked, lines } = harness(GOOD);
  const result = await run();
  expect(invoked).toEqual(['{"path":"/a"}', '{"path":"/b"}']);
  expect(reports.map(({ event, status }) => ({ event, status }))).toEqual([{ event: EVENT, status: 'Succeeded' }]);
  expect(result.status).toBe('Succeeded');
  expect(lines.filter((l) => l.message === 'pre-traffic probe').map((l) => [l.level, l.name, l.passed, l.deploymentId])).toEqual([
    ['INFO', 'no key: 401', true, 'd-ABC123'],
    ['INFO', 'canary: 200', true, 'd-ABC123'],
  ]);
  expect(lines.at(-1)).toMatchObject({ message: 'pre-traffic check', status: 'Succeeded', probes: 2, failed: [], target: TARGET, reportAttempts: 1 });
});

test('reports Failed when one probe gets another status, and its error line says which and what came back', async () => {
  const { run, reports, lines } = harness(answering({ '/a': 401, '/b': 503 }));
  await run();
  expect(reports.map((r) => r.status)).toEqual(['Failed']);
  const failed = lines.find((l) => l.level === 'ERROR')!;
  expect(failed).toMatchObject({ name: 'canary: 200', passed: false, status: 503 });
  expect(failed.problem).toMatch(/^expected status 200, got 503: \{"statusCode":503/);
  expect(lines.at(-1)).toMatchObject({ status: 'Failed', failed: ['canary: 200'] });
});

test('reports Failed when the new version crashes (FunctionError), even if its payload carries the expected status', async () => {
  const { run, reports } = harness(async () => ({ functionError: 'Unhandled', payload: '{"statusCode":401,"errorMessage":"boom"}' }));
  await run();
  expect(reports.map((r) => r.status)).toEqual(['Failed']);
});

test('reports Failed before its deadline when the new version never answers, and sends no probe after the one that hung', async () => {
  const { run, reports, invoked, lines } = harness(() => new Promise<Invocation>(() => undefined));
  await run();
  expect(reports.map((r) => r.status)).toEqual(['Failed']);
  expect(reports[0]!.at).toBeLessThan(DEADLINE);
  expect(invoked).toHaveLength(1);
  const [hung, notSent] = lines.filter((l) => l.message === 'pre-traffic probe');
  expect(hung).toMatchObject({ name: 'no key: 401', passed: false, problem: 'no answer within 20000 ms: the new version hangs or is too slow' });
  expect(notSent).toMatchObject({ name: 'canary: 200', passed: false, problem: 'not sent: an earlier probe got no answer' });
});

test('stops waiting for a probe when the time left before the report window runs out, whatever the probe allows', async () => {
  const { run, reports, clock } = harness(() => new Promise<Invocation>(() => undefined));
  const slow: Probe[] = [{ ...PROBES[0]!, timeoutMs: 10 * 60_000 }];
  await run({ probes: JSON.stringify(slow) });
  expect(reports.map((r) => r.status)).toEqual(['Failed']);
  expect(reports[0]!.at).toBe(DEADLINE - REPORT_WINDOW_MS);
  expect(clock.now()).toBeLessThan(DEADLINE);
});

test('tries the new version again while Lambda answers AccessDenied (IAM applying the fresh grant), then reports Succeeded', async () => {
  const { run, reports, invoked } = harness(async (payload, call) => {
    if (call <= 3) throw denied();
    return GOOD(payload);
  });
  await run();
  expect(reports.map((r) => r.status)).toEqual(['Succeeded']);
  expect(invoked).toEqual(['{"path":"/a"}', '{"path":"/a"}', '{"path":"/a"}', '{"path":"/a"}', '{"path":"/b"}']);
});

test('reports Failed, naming the error, when AccessDenied outlasts its window', async () => {
  const { run, reports, lines, clock } = harness(async () => {
    throw denied();
  });
  await run();
  expect(reports.map((r) => r.status)).toEqual(['Failed']);
  expect(clock.now()).toBeLessThan(T0 + ACCESS_DENIED_WINDOW_MS + 20_000);
  expect(lines.find((l) => l.level === 'ERROR')!.problem).toBe(
    'could not invoke the new version: AccessDeniedException: User is not authorized to perform: lambda:InvokeFunction',
  );
});

test('reports Failed at once, without waiting, when an invocation fails for another reason', async () => {
  const { run, reports, invoked, clock } = harness(async () => {
    throw Object.assign(new Error('Function not found'), { name: 'ResourceNotFoundException' });
  });
  await run();
  expect(reports.map((r) => [r.status, r.at])).toEqual([['Failed', T0]]);
  expect([invoked.length, clock.now()]).toEqual([2, T0]);
});

test.each([
  ['no probes', undefined, TARGET, /PROBES is not set/],
  ['probes that are not JSON', '[{', TARGET, /JSON/],
  ['a malformed probe', '[{"event":{}}]', TARGET, /malformed probe/],
  ['a probe whose timeout is not a number', '[{"name":"a","event":{},"timeoutMs":"60"}]', TARGET, /malformed probe/],
  ['no target version', JSON.stringify(PROBES), undefined, /TARGET_VERSION_ARN is not set/],
])('reports Failed, invoking nothing, when its configuration has %s', async (_, probes, target, message) => {
  const { run, reports, invoked, lines } = harness(answering({}));
  await run({ probes, target });
  expect(invoked).toEqual([]);
  expect(reports.map((r) => r.status)).toEqual(['Failed']);
  expect(lines.find((l) => l.message === 'pre-traffic check could not run')!.error).toMatch(message);
});

test('refuses an event that is not a CodeDeploy hook invocation, reporting nothing', async () => {
  const { run, reports, invoked } = harness(GOOD);
  await expect(run({ event: { DeploymentId: 'd-1' } })).rejects.toThrow(/LifecycleEventHookExecutionId/);
  expect([reports, invoked]).toEqual([[], []]);
});

test('reports again when the report call fails once, and logs the failed attempt', async () => {
  const { run, reports, reportCalls, lines } = harness(GOOD, (call) =>
    call === 1 ? Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }) : undefined,
  );
  await run();
  expect(reportCalls).toHaveLength(2);
  expect(reports.map((r) => r.status)).toEqual(['Succeeded']);
  expect(lines.find((l) => l.message === 'pre-traffic report failed: tried again')).toMatchObject({
    level: 'WARN',
    attempt: 1,
    error: 'ThrottlingException: Rate exceeded',
  });
  expect(lines.at(-1)).toMatchObject({ status: 'Succeeded', reportAttempts: 2 });
});

test('reports while CodeDeploy answers AccessDenied at first (IAM applying the grant), before its deadline', async () => {
  const denial = Object.assign(new Error('not authorized to perform: codedeploy:PutLifecycleEventHookExecutionStatus'), { name: 'AccessDeniedException' });
  const { run, reports, reportCalls } = harness(GOOD, (call) => (call <= 5 ? denial : undefined));
  await run();
  expect(reportCalls).toHaveLength(6);
  expect(reports.map((r) => r.status)).toEqual(['Succeeded']);
  expect(reports[0]!.at).toBeLessThan(DEADLINE);
});

test('fails the invocation (so Lambda records the error) when CodeDeploy cannot be told by its deadline, having tried until then', async () => {
  const { run, invoked, reportCalls, clock } = harness(GOOD, () => denied());
  await expect(run()).rejects.toThrow(/AccessDeniedException|not authorized/);
  expect(invoked).toHaveLength(2);
  expect(reportCalls.length).toBeGreaterThan(5);
  expect(reportCalls.every((at) => at < DEADLINE)).toBe(true);
  expect(clock.now()).toBeLessThanOrEqual(DEADLINE);
});
