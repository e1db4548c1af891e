import { companyCursor, contactCursor, decodeCursor, encodeCursor, textPosition } from '../../../lambda/kernel/cursor';
import { descending } from '../../../lambda/kernel/descending';
import { InvalidCursorError } from '../../../lambda/kernel/errors';

describe('the one cursor codec', () => {
  test('a cursor gives back the position it was made with, for its factory and list', () => {
    expect(contactCursor.decode(contactCursor.encode('fac_a', 'ct_0123456789abcdef'), 'fac_a')).toBe('ct_0123456789abcdef');
    const scope = { factoryId: 'fac_a', list: 'issues open lastSeen' };
    expect(decodeCursor(encodeCursor(scope, { v: 3, i: 'iss_1' }), scope, (value) => value)).toEqual({ v: 3, i: 'iss_1' });
  });

  test('a cursor of another factory is refused, naming both factories', () => {
    expect(() => contactCursor.decode(contactCursor.encode('fac_a', 'ct_0123456789abcdef'), 'fac_b')).toThrow(
      new InvalidCursorError('cursor belongs to another factory (fac_a), not fac_b'),
    );
  });

  test('a cursor of another list is refused as such', () => {
    expect(() => contactCursor.decode(companyCursor.encode('fac_a', 'acme.io'), 'fac_a')).toThrow(/^cursor belongs to another list/);
    const open = { factoryId: 'fac_a', list: 'issues open' };
    expect(() => decodeCursor(encodeCursor(open, 'x'), { ...open, list: 'issues resolved' }, textPosition)).toThrow(/^cursor belongs to another list/);
  });

  test('text that is no cursor, or a cursor whose position is not one of the list, is refused as not ours', () => {
    for (const cursor of [
      '%%%',
      '',
      Buffer.from('[1]').toString('base64url'),
      Buffer.from('{"f":"fac_a","c":"ct_x"}').toString('base64url'),
      encodeCursor({ factoryId: 'fac_a', list: 'contacts' }, 'company#x'),
    ]) {
      expect(() => contactCursor.decode(cursor, 'fac_a')).toThrow(/^cursor is not one this service returned/);
    }
  });
});

describe('the one descending order', () => {
  test('greatest value first, then the greater key first, whatever the order given', () => {
    const order = descending<{ at: string; id: string }>(
      (item) => item.at,
      (item) => item.id,
    );
    const items = [
      { at: '2026-01-01', id: 'b' },
      { at: '2026-01-02', id: 'a' },
      { at: '2026-01-01', id: 'c' },
      { at: '2026-01-01', id: 'a' },
    ];
    const expected = ['2026-01-02 a', '2026-01-01 c', '2026-01-01 b', '2026-01-01 a'];
    expect([...items].sort(order).map((item) => `${item.at} ${item.id}`)).toEqual(expected);
    expect(
      [...items]
        .reverse()
        .sort(order)
        .map((item) => `${item.at} ${item.id}`),
    ).toEqual(expected);
  });
});
