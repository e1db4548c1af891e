import { until } from '../support/until';

describe('until', () => {
  test('answers the first value that is neither undefined nor false, after as many tries as it takes', async () => {
    const answers: (string | undefined | false)[] = [undefined, false, undefined, 'ready', 'later'];
    let tries = 0;
    await expect(until('the answer', () => answers[tries++], 1_000, 1)).resolves.toBe('ready');
    expect(tries).toBe(4);
  });

  test('at the deadline, throws naming what it waited for', async () => {
    await expect(until('the moon', () => false, 20, 5)).rejects.toThrow('timed out after 20 ms waiting for the moon');
  });
});
