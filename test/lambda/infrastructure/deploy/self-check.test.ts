import { isSelfCheckEvent, SELF_CHECK_EVENT, selfCheckAnswer } from '../../../../lambda/infrastructure/deploy/self-check';
import { proxyEvent } from '../../../support/events';

describe("a function's self-check", () => {
  test("its event is the hook's own, never an API Gateway request", () => {
    expect(isSelfCheckEvent(SELF_CHECK_EVENT)).toBe(true);
    expect(isSelfCheckEvent(proxyEvent({ body: '{"preTrafficSelfCheck":"canary-contact"}' }))).toBe(false);
    for (const other of [null, 'canary-contact', { preTrafficSelfCheck: 'canary-delivery' }]) expect(isSelfCheckEvent(other)).toBe(false);
  });

  test('answers a status and a JSON body saying what was checked', () => {
    expect(selfCheckAnswer(200, { checked: 'x' })).toEqual({ statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{"checked":"x"}' });
  });
});
