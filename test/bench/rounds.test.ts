import { sequentialRounds } from '../../tools/bench/rounds';

describe('sequentialRounds', () => {
  it('counts no round for no call', () => {
    expect(sequentialRounds([])).toEqual({ calls: 0, rounds: 0, waited: 0, roundOf: [] });
  });

  it('puts calls sent together in one round', () => {
    const summary = sequentialRounds([
      { start: 0, end: 10 },
      { start: 0.2, end: 8 },
    ]);
    expect(summary).toMatchObject({ calls: 2, rounds: 1, waited: 0, roundOf: [1, 1] });
  });

  it('counts a call sent after another answered as a new round', () => {
    const summary = sequentialRounds([
      { start: 0, end: 10 },
      { start: 10, end: 20 },
      { start: 21, end: 30 },
    ]);
    expect(summary).toMatchObject({ rounds: 3, waited: 2, roundOf: [1, 2, 3] });
  });

  it('follows the longest chain, whatever order the calls are given in', () => {
    // R1: a ∥ b; c waits for b only (a is still running); d waits for c.
    const a = { start: 0, end: 30 };
    const b = { start: 0, end: 5 };
    const c = { start: 6, end: 12 };
    const d = { start: 13, end: 20 };
    const summary = sequentialRounds([d, a, c, b]);
    expect(summary.rounds).toBe(3);
    expect(summary.roundOf).toEqual([3, 1, 2, 1]);
    expect(summary.waited).toBe(2);
  });

  it('does not chain a call that started before the other ended', () => {
    expect(
      sequentialRounds([
        { start: 0, end: 10 },
        { start: 9.9, end: 15 },
      ]).rounds,
    ).toBe(1);
  });
});
