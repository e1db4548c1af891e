import { isAccessDenied, judge, probesFromJson, runProbes, type Probe } from '../../../../lambda/infrastructure/deploy/probes';

/** The probes' rule (send, judge), pure; with the hook's clock: pre-traffic-hook.test.ts; sent to the real handlers: test/deploy/probes.test.ts. */
const PROBE: Probe = { name: 'no key: 401', event: { path: '/a' }, expectStatus: 401 };

describe('an answer judged against its probe', () => {
  test('passes with the status it expects, naming the status', () => {
    expect(judge(PROBE, { payload: '{"statusCode":401,"body":"{}"}' }, 12)).toEqual({ name: 'no key: 401', passed: true, status: 401, ms: 12 });
  });

  test('fails on another status, quoting the answer (at most 300 characters)', () => {
    const outcome = judge(PROBE, { payload: JSON.stringify({ statusCode: 500, body: 'x'.repeat(1000) }) }, 5);
    expect(outcome).toMatchObject({ passed: false, status: 500, problem: expect.stringMatching(/^expected status 401, got 500: /) });
    expect(outcome.problem!.length).toBeLessThan(400);
    expect(judge(PROBE, { payload: 'not json' }, 5).problem).toBe('expected status 401, got no status: not json');
  });

  test('fails a crashed invocation even when its payload carries the expected status', () => {
    expect(judge(PROBE, { functionError: 'Unhandled', payload: '{"statusCode":401}' }, 5)).toMatchObject({
      passed: false,
      problem: expect.stringMatching(/^the invocation failed \(Unhandled\)/),
    });
  });

  test('a whole expected answer compares as JSON, spacing aside; no expectation passes any answer that did not fail', () => {
    const batch: Probe = { name: 'batch', event: {}, expectPayload: { batchItemFailures: [] } };
    expect(judge(batch, { payload: '{ "batchItemFailures": [ ] }' }, 1).passed).toBe(true);
    expect(judge(batch, { payload: '{"batchItemFailures":[{"itemIdentifier":"1"}]}' }, 1).passed).toBe(false);
    expect(judge({ name: 'any', event: {} }, { payload: 'null' }, 1).passed).toBe(true);
  });
});

describe('probes sent in turn', () => {
  test('each in order, its payload the event as JSON', async () => {
    const sent: string[] = [];
    const outcomes = await runProbes(
      async (payload) => {
        sent.push(payload);
        return { payload: '{"statusCode":401}' };
      },
      [PROBE, { ...PROBE, event: { path: '/b' } }],
    );
    expect(sent).toEqual(['{"path":"/a"}', '{"path":"/b"}']);
    expect(outcomes.map((outcome) => outcome.passed)).toEqual([true, true]);
  });

  test('an invocation that throws fails its probe with the error; later probes are still sent', async () => {
    let calls = 0;
    const outcomes = await runProbes(async () => {
      calls += 1;
      if (calls === 1) throw new TypeError('function not found');
      return { payload: '{"statusCode":401}' };
    }, [PROBE, PROBE]);
    expect(outcomes.map((outcome) => outcome.problem)).toEqual(['could not invoke the new version: TypeError: function not found', undefined]);
  });
});

test("IAM's not-yet is recognized by its name or its words", () => {
  expect(isAccessDenied(Object.assign(new Error('x'), { name: 'AccessDeniedException' }))).toBe(true);
  expect(isAccessDenied(new Error('User is not authorized to perform: lambda:InvokeFunction'))).toBe(true);
  expect(isAccessDenied(new Error('ResourceNotFound'))).toBe(false);
  expect(isAccessDenied('AccessDenied')).toBe(false);
});

describe("the probes in the hook's environment", () => {
  test('are read as the stack wrote them', () => {
    expect(probesFromJson(JSON.stringify([PROBE]))).toEqual([PROBE]);
  });

  test('missing, empty or malformed, the hook says what is wrong', () => {
    expect(() => probesFromJson(undefined)).toThrow('PROBES is not set');
    expect(() => probesFromJson('[]')).toThrow('PROBES must be a non-empty JSON list of probes');
    expect(() => probesFromJson('[{"name":"x"}]')).toThrow(/PROBES holds a malformed probe/);
    expect(() => probesFromJson('[{"name":"x","event":{},"expectStatus":"200"}]')).toThrow(/malformed/);
  });
});
