import { NO_BODY, route, type BodyReader } from '../../../../lambda/infrastructure/http/pipeline';
import { json } from '../../../../lambda/infrastructure/http/responses';
import { context, proxyEvent } from '../../../support/events';

/** A body reader that records when it reads. */
const recordingBody = (steps: string[]): BodyReader<string> => ({
  read: (event) => {
    steps.push('body');
    return event.body ?? '';
  },
});

/** An operation that records the body it got. */
const recordingOperation =
  (steps: string[]) =>
  () =>
  async ({ body }: { body: string }) => {
    steps.push(`operation:${body}`);
    return json(200, {});
  };

const call = (compiled: ReturnType<ReturnType<typeof route>['compile']>, body: string) =>
  compiled.handler(proxyEvent({ httpMethod: 'POST', path: '/x', body }), context());

describe('route: the stages of a route', () => {
  test('a route runs its checks, then reads its body, then its operation', async () => {
    const steps: string[] = [];
    const compiled = route({
      method: 'POST',
      path: '/x',
      checks: [() => void steps.push('check')],
      body: recordingBody(steps),
      operation: recordingOperation(steps),
    }).compile({});
    await call(compiled, 'b');
    expect(steps).toEqual(['check', 'body', 'operation:b']);
  });

  test('a body-first route reads its body once, before its checks, and hands it to the checks and the operation', async () => {
    const steps: string[] = [];
    const compiled = route({
      method: 'POST',
      path: '/x',
      bodyFirst: true,
      body: recordingBody(steps),
      checks: [(_event, _state, body: string) => void steps.push(`check:${body}`)],
      operation: recordingOperation(steps),
    }).compile({});
    await call(compiled, 'envelope');
    expect(steps).toEqual(['body', 'check:envelope', 'operation:envelope']);
  });

  test("a body-first route's reader refuses before any check runs", async () => {
    const steps: string[] = [];
    const compiled = route({
      method: 'POST',
      path: '/x',
      bodyFirst: true,
      body: {
        read: () => {
          throw new Error('too large');
        },
      },
      checks: [() => void steps.push('check')],
      operation: () => async () => json(200, {}),
    }).compile({});
    await expect(call(compiled, 'x')).rejects.toThrow('too large');
    expect(steps).toEqual([]);
  });

  test('the table says which routes read a body, and which read it first', () => {
    const operation = () => async () => json(200, {});
    expect(route({ method: 'GET', path: '/x', body: NO_BODY, operation })).toMatchObject({ readsBody: false, bodyFirst: false });
    expect(route({ method: 'POST', path: '/x', body: recordingBody([]), operation })).toMatchObject({ readsBody: true, bodyFirst: false });
    expect(route({ method: 'POST', path: '/x', bodyFirst: true, body: recordingBody([]), operation })).toMatchObject({ readsBody: true, bodyFirst: true });
  });
});
