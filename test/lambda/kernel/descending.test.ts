import { descending } from '../../../lambda/kernel/descending';

interface Item {
  at: string;
  id: string;
}
const newestFirst = descending<Item>(
  (item) => item.at,
  (item) => item.id,
);

describe('the one newest-first order', () => {
  test('puts the greatest value first', () => {
    const items = [
      { at: '2026-11-01', id: 'a' },
      { at: '2026-11-03', id: 'b' },
      { at: '2026-11-02', id: 'c' },
    ];
    expect([...items].sort(newestFirst).map((item) => item.id)).toEqual(['b', 'c', 'a']);
  });

  test('orders items of one value by their key, descending, as a backwards partition read hands them out', () => {
    const items = [
      { at: '2026-11-01', id: 'x1' },
      { at: '2026-11-01', id: 'x3' },
      { at: '2026-11-01', id: 'x2' },
    ];
    expect([...items].sort(newestFirst).map((item) => item.id)).toEqual(['x3', 'x2', 'x1']);
  });

  test('compares numbers as numbers, and an item with itself as equal', () => {
    const byCount = descending<{ n: number; k: string }>(
      (item) => item.n,
      (item) => item.k,
    );
    expect(
      [
        { n: 9, k: 'a' },
        { n: 10, k: 'b' },
      ]
        .sort(byCount)
        .map((item) => item.n),
    ).toEqual([10, 9]);
    expect(byCount({ n: 1, k: 'a' }, { n: 1, k: 'a' })).toBe(0);
  });
});
