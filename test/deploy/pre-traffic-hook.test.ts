import { createPreTrafficHook, type HookEvent, type HookStatus } from '../../lambda/deploy/pre-traffic-hook';
import type { Invocation, Probe } from '../../lambda/deploy/probes';
import { JsonLogger } from '../../lambda/observability/logger';

/**
 * The hook's own logic, with the two AWS calls it makes (Lambda Invoke of the
 * new version, CodeDeploy's PutLifecycleEventHookExecutionStatus) as ports:
 * what it reports, when, and what it logs. test/deploy/probes.test.ts sends
 * the stack's probes to the real handlers.
 */
const EVENT: HookEvent = { DeploymentId: 'd-ABC123', LifecycleEventHookExecutionId: 'exec-42' };
const TARGET = 'arn:aws:lambda:eu-west-1:123456789012:function:ContactsService-Api:7';

const PROBES: Probe[] = [
  { name: 'no key: 401', event: { path: '/a' }, expectStatus: 401 },
  { name: 'canary: 200', event: { path: '/b' }, expectStatus: 200 },
];

function harness(answer: (payload: string) => Promise<Invocation>, options: { failReport?: boolean } = {}) {
  const reports: { event: HookEvent; status: HookStatus }[] = [];
  const invoked: string[] = [];
  const lines: Record<string, unknown>[] = [];
  const write = (text: string) => lines.push(JSON.parse(text) as Record<string, unknown>);
  const ports = {
    invoke: (payload: string) => {
      invoked.push(payload);
      return answer(payload);
    },
    report: async (event: HookEvent, status: HookStatus) => {
      if (options.failReport) throw new Error('AccessDeniedException: not allowed');
      reports.push({ event, status });
    },
    logger: new JsonLogger({ service: 'contacts-pre-traffic-check', level: 'INFO', out: write, err: write }),
  };
  return { ports, reports, invoked, lines };
}

const answering = (statuses: Record<string, number>) => async (payload: string): Promise<Invocation> => ({
  payload: JSON.stringify({ statusCode: statuses[(JSON.parse(payload) as { path: string }).path], body: '{}' }),
});

test('reports Succeeded for its deployment when every probe gets the status it expects, after sending each in order', async () => {
  const { ports, reports, invoked, lines } = harness(answering({ '/a': 401, '/b': 200 }));
  const result = await createPreTrafficHook(ports, JSON.stringify(PROBES), TARGET)(EVENT);
  expect(invoked).toEqual(['{"path":"/a"}', '{"path":"/b"}']);
  expect(reports).toEqual([{ event: EVENT, status: 'Succeeded' }]);
  expect(result.status).toBe('Succeeded');
  expect(lines.filter((l) => l.message === 'pre-traffic probe').map((l) => [l.level, l.name, l.passed, l.deploymentId])).toEqual([
    ['INFO', 'no key: 401', true, 'd-ABC123'],
    ['INFO', 'canary: 200', true, 'd-ABC123'],
  ]);
  expect(lines.at(-1)).toMatchObject({ message: 'pre-traffic check', status: 'Succeeded', probes: 2, failed: [], target: TARGET });
});

test('reports Failed when one probe gets another status, and its error line says which and what came back', async () => {
  const { ports, reports, lines } = harness(answering({ '/a': 401, '/b': 503 }));
  await createPreTrafficHook(ports, JSON.stringify(PROBES), TARGET)(EVENT);
  expect(reports).toEqual([{ event: EVENT, status: 'Failed' }]);
  const failed = lines.find((l) => l.level === 'ERROR')!;
  expect(failed).toMatchObject({ name: 'canary: 200', passed: false, status: 503 });
  expect(failed.problem).toMatch(/^expected status 200, got 503: \{"statusCode":503/);
  expect(lines.at(-1)).toMatchObject({ status: 'Failed', failed: ['canary: 200'] });
});

test('reports Failed when the new version crashes (FunctionError), even if its payload carries the expected status', async () => {
  const { ports, reports } = harness(async () => ({ functionError: 'Unhandled', payload: '{"statusCode":401,"errorMessage":"boom"}' }));
  await createPreTrafficHook(ports, JSON.stringify(PROBES), TARGET)(EVENT);
  expect(reports.map((r) => r.status)).toEqual(['Failed']);
});

test('reports Failed when the version cannot be invoked at all', async () => {
  const { ports, reports, lines } = harness(async () => {
    throw Object.assign(new Error('User is not authorized to perform: lambda:InvokeFunction'), { name: 'AccessDeniedException' });
  });
  await createPreTrafficHook(ports, JSON.stringify(PROBES), TARGET)(EVENT);
  expect(reports.map((r) => r.status)).toEqual(['Failed']);
  expect(lines.find((l) => l.level === 'ERROR')!.problem).toBe('could not invoke the new version: AccessDeniedException: User is not authorized to perform: lambda:InvokeFunction');
});

test.each([
  ['no probes', undefined, TARGET, /PROBES is not set/],
  ['probes that are not JSON', '[{', TARGET, /JSON/],
  ['a malformed probe', '[{"event":{}}]', TARGET, /malformed probe/],
  ['no target version', JSON.stringify(PROBES), undefined, /TARGET_VERSION_ARN is not set/],
])('reports Failed, invoking nothing, when its configuration has %s', async (_, probes, target, message) => {
  const { ports, reports, invoked, lines } = harness(answering({}));
  await createPreTrafficHook(ports, probes, target)(EVENT);
  expect(invoked).toEqual([]);
  expect(reports.map((r) => r.status)).toEqual(['Failed']);
  expect(lines.find((l) => l.message === 'pre-traffic check could not run')!.error).toMatch(message);
});

test('refuses an event that is not a CodeDeploy hook invocation, reporting nothing', async () => {
  const { ports, reports, invoked } = harness(answering({}));
  await expect(createPreTrafficHook(ports, JSON.stringify(PROBES), TARGET)({ DeploymentId: 'd-1' })).rejects.toThrow(/LifecycleEventHookExecutionId/);
  expect([reports, invoked]).toEqual([[], []]);
});

test('fails the invocation when CodeDeploy cannot be told (so Lambda records the error), after running the probes', async () => {
  const { ports, invoked } = harness(answering({ '/a': 401, '/b': 200 }), { failReport: true });
  await expect(createPreTrafficHook(ports, JSON.stringify(PROBES), TARGET)(EVENT)).rejects.toThrow(/AccessDeniedException/);
  expect(invoked).toHaveLength(2);
});
