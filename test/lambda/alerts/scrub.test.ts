import { scrubbedTitle } from '../../../lambda/alerts/scrub';

describe("a payload's title, for a receiver the platform does not control", () => {
  test('emails, IPv4 and IPv6 addresses (compressed ones too) and runs of 7 digits or more are replaced', () => {
    expect(scrubbedTitle('Failed for ada@example.com from 192.168.1.20 and 2001:db8::1, card 4111 1111 1111 1111')).toBe(
      'Failed for <email> from <ip> and <ip>, card <number>',
    );
  });

  test('short numbers and ordinary text stay', () => {
    expect(scrubbedTitle('TypeError: row 42 of 100000 is undefined')).toBe('TypeError: row 42 of 100000 is undefined');
    expect(scrubbedTitle('call +1 555 010 9999')).toBe('call +<number>');
    expect(scrubbedTitle('RangeError: invalid array length')).toBe('RangeError: invalid array length');
  });

  test('is at most 500 characters', () => {
    expect(scrubbedTitle('x'.repeat(2000))).toHaveLength(500);
  });

  test('runs in linear time on hostile text (a long run without a closing part)', () => {
    const started = process.cpuUsage();
    scrubbedTitle(`${'a@'.repeat(20_000)}${'1 '.repeat(20_000)}`);
    const { user } = process.cpuUsage(started);
    expect(user).toBeLessThan(2_000_000);
  });
});
