import { callerOf, newRequestState, note } from '../../../../lambda/infrastructure/http/request-state';

describe("one request's state", () => {
  test('starts with no caller, an empty call log and the slot given, its own each time', () => {
    const slot = { seen: false };
    const first = newRequestState(slot);
    expect(first).toEqual({ calls: { calls: 0, latenciesMs: [] }, slot });
    expect(newRequestState({}).calls).not.toBe(first.calls);
  });

  test('note() adds log fields and, when given, counts, keeping what was noted before', () => {
    const state = newRequestState({});
    note(state, { accepted: 2 }, { EventsAccepted: 2 });
    note(state, { duplicates: 1 });
    expect(state.logFields).toEqual({ accepted: 2, duplicates: 1 });
    expect(state.counts).toEqual({ EventsAccepted: 2 });
  });

  test('a route reached without a caller is a programming error, said so', () => {
    expect(() => callerOf(newRequestState({}))).toThrow('route reached without an authenticated caller');
    expect(callerOf({ ...newRequestState({}), caller: { factoryId: 'fac_a', keyId: 'key_a' } })).toEqual({ factoryId: 'fac_a', keyId: 'key_a' });
  });
});
