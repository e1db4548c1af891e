import { clip, describeError, describeMessage, stringify, uuid } from '../../../browser-sdk/src/describe';

describe('what the browser SDK reads from an error', () => {
  test('an Error becomes "Type: message" with its stack as written; other values become text', () => {
    const error = new RangeError('too far');
    expect(describeError(error)).toEqual({ message: 'RangeError: too far', exception: { type: 'RangeError', value: 'too far', stack: error.stack } });
    expect(describeError({ code: 42 }, 'Unhandled promise rejection: ')).toEqual({
      message: 'Unhandled promise rejection: {"code":42}',
      exception: { type: 'UnhandledRejection', value: '{"code":42}' },
    });
    expect(describeError('plain text')).toEqual({ message: 'plain text', exception: { type: 'Error', value: 'plain text' } });
    expect(describeMessage('hello')).toEqual({ message: 'hello' });
    expect([stringify(undefined), stringify(10n), stringify({})]).toEqual(['undefined', '10', '[object Object]']);
  });

  test('clipping never leaves half of a surrogate pair (the API refuses lone surrogates)', () => {
    expect(clip('ab😀', 3)).toBe('ab');
    expect(clip('abc', 3)).toBe('abc');
    expect(clip('x'.repeat(20_000), 16_384)).toHaveLength(16_384);
  });

  test('a rejection that is not an Error is said to be one, its value as text', () => {
    expect(describeError({ code: 42 }, 'Unhandled promise rejection: ')).toEqual({
      message: 'Unhandled promise rejection: {"code":42}',
      exception: { type: 'UnhandledRejection', value: '{"code":42}' },
    });
  });

  test("an error of another window (an iframe's), or an error-like object, is read as an Error", () => {
    expect(describeError({ name: 'QuotaExceededError', message: 'full', stack: '' })).toEqual({
      message: 'QuotaExceededError: full',
      exception: { type: 'QuotaExceededError', value: 'full' },
    });
  });

  test('text that JSON cannot write (a cycle, a BigInt) is written as String() does', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(stringify(cycle)).toBe('[object Object]');
    expect(stringify(10n)).toBe('10');
    expect(describeMessage('x'.repeat(10_000)).message).toHaveLength(8192);
  });
});

test('an event id is a version 4 UUID, a new one each time', () => {
  const ids = new Set(Array.from({ length: 100 }, () => uuid()));
  expect(ids.size).toBe(100);
  for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});
