import { DECISIONS, ITEM_STATES, itemStateOf, type ItemState } from '../../../../lambda/ingest/issues/lifecycle';

/** The one decision table of what new events do to the item that counts them (lambda/ingest/issues/lifecycle.ts). */
const NOW = 2_000_000_000;

describe('the state an item is found in', () => {
  test.each<[string, Parameters<typeof itemStateOf>[0], ItemState]>([
    ['no item', undefined, 'absent'],
    ['an issue past its expiry (whatever its status or bookkeeping)', { expiresAt: NOW, status: 'resolved', marked: false }, 'expired'],
    ['an issue of the design before (no marks or counts per period)', { expiresAt: NOW + 1, status: 'open', marked: false }, 'unmarked'],
    ['an open issue', { expiresAt: NOW + 1, status: 'open', marked: true }, 'active'],
    ['an ignored issue', { expiresAt: NOW + 1, status: 'ignored', marked: true }, 'active'],
    ['a resolved issue', { expiresAt: NOW + 1, status: 'resolved', marked: true }, 'resolved'],
    ['a counter (no expiry, no status)', { marked: true }, 'active'],
    ['a counter of the design before', { marked: false }, 'unmarked'],
  ])('%s is %s', (_name, facts, state) => {
    expect(itemStateOf(facts, NOW)).toBe(state);
  });

  test('an expiry is read against the instant given: the second it names is already past', () => {
    expect(itemStateOf({ expiresAt: NOW, status: 'open', marked: true }, NOW - 1)).toBe('active');
    expect(itemStateOf({ expiresAt: NOW, status: 'open', marked: true }, NOW)).toBe('expired');
  });
});

describe('the decision table', () => {
  test('every state has its row, and only a resolved issue regresses', () => {
    expect(Object.keys(DECISIONS).sort()).toEqual([...ITEM_STATES].sort());
    expect(ITEM_STATES.filter((state) => DECISIONS[state].regression)).toEqual(['resolved']);
  });

  test('a new item opens for an absent or expired one; a counted write ends the batch; marking leads to counting', () => {
    expect(ITEM_STATES.filter((state) => DECISIONS[state].write === 'open')).toEqual(['absent', 'expired']);
    expect(DECISIONS.unmarked).toMatchObject({ write: 'mark', next: 'active' });
    for (const state of ['absent', 'expired', 'active', 'resolved'] as const) expect(DECISIONS[state].next).toBe('done');
  });

  test('every path through the table ends in a done write within two rows', () => {
    for (const state of ITEM_STATES) {
      const next = DECISIONS[state].next;
      expect(next === 'done' || DECISIONS[next].next === 'done').toBe(true);
    }
  });
});
