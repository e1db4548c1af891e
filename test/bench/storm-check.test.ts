import { checkStorm, type ScannedEvent } from '../../tools/storm/storm-check';

/** The storm bench's verdict (tools/storm/storm-check.ts): lost after acknowledgment, exact counts, resolved frames. */

const APP = 'https://shop.example.com/assets/';
const resolved = (fn: string) => ({ file: `${APP}app-1.js`, original: { fn, source: 'src/cart.js' } });
const event = (eventId: string, issue: string | undefined, frames?: ScannedEvent['frames']): ScannedEvent => ({
  eventId,
  ...(issue ? { issue } : {}),
  ...(frames ? { frames } : {}),
});
const ids = (...values: string[]) => new Set(values);

describe("the storm bench's verdict", () => {
  test('an acknowledged event that is not stored counts as lost after acknowledgment; a stored unacknowledged one does not', () => {
    const check = checkStorm({
      events: [event('a', 'iss_1'), event('c', 'iss_1')],
      issues: [{ pk: 'issue#fac_x#iss_1', count: 2 }],
      sent: new Map([['storm', ids('a', 'b', 'c')]]),
      acknowledged: new Map([['storm', ids('a', 'b')]]),
    });
    expect(check.lostAfterAcknowledgment).toBe(1);
    expect(check.bugs.storm).toEqual({ acknowledged: 2, acknowledgedStored: 1, stored: 2, issues: ['iss_1'] });
  });

  test("counts are exact only when every issue's count equals the events counted into it", () => {
    const input = (count: number) => ({
      events: [event('a', 'iss_1'), event('b', 'iss_1'), event('c', 'iss_2')],
      issues: [
        { pk: 'issue#fac_x#iss_1', count },
        { pk: 'issue#fac_x#iss_2', count: 1 },
      ],
      sent: new Map([['storm', ids('a', 'b', 'c')]]),
      acknowledged: new Map([['storm', ids('a', 'b', 'c')]]),
    });
    expect(checkStorm(input(2)).exact).toBe(true);
    expect(checkStorm(input(3)).exact).toBe(false);
    expect(checkStorm(input(2)).issues).toEqual([
      { issueId: 'iss_1', count: 2, stored: 2 },
      { issueId: 'iss_2', count: 1, stored: 1 },
    ]);
  });

  test('an event in no issue, or in an issue without an item, makes the counts inexact', () => {
    const base = { sent: new Map([['storm', ids('a')]]), acknowledged: new Map([['storm', ids('a')]]) };
    expect(checkStorm({ ...base, events: [event('a', undefined)], issues: [] }).exact).toBe(false);
    expect(checkStorm({ ...base, events: [event('a', 'iss_9')], issues: [] }).exact).toBe(false);
  });

  test("a mapped bug's event is resolved only when every frame of the app's scripts has an original position", () => {
    const check = checkStorm({
      events: [
        event('a', 'iss_1', [resolved('cartItems'), resolved('countItems'), { file: 'https://shop.example.com/inline.js', unresolved: 'no-debug-id' }]),
        event('b', 'iss_1', [resolved('cartItems'), { file: `${APP}app-2.js`, unresolved: 'no-map' }]),
      ],
      issues: [{ pk: 'issue#fac_x#iss_1', count: 2 }],
      sent: new Map([['storm', ids('a', 'b')]]),
      acknowledged: new Map([['storm', ids('a', 'b')]]),
      mapped: { bug: 'storm', appPrefix: APP },
    });
    expect(check.frames).toEqual({ events: 2, resolved: 1, unresolved: { 'no-map': 1 }, topFunctions: { cartItems: 2 } });
  });
});
