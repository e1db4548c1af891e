import { ipRule, isIpv4, isIpv6 } from '../../../../lambda/ingest/scrub/ip';
import { applied } from '../../../support/scrub';

describe('ip rule', () => {
  test.each([
    ['IPv4 in a log line', 'connect ECONNREFUSED 10.0.12.7:5432', 'connect ECONNREFUSED [Filtered:ip]:5432'],
    ['IPv4 after a colon', 'client:203.0.113.9 refused', 'client:[Filtered:ip] refused'],
    ['IPv6 full', 'from 2001:0db8:85a3:0000:0000:8a2e:0370:7334 .', 'from [Filtered:ip] .'],
    ['IPv6 compressed in brackets', 'GET http://[2001:db8::1]:8080/x', 'GET http://[[Filtered:ip]]:8080/x'],
    ['IPv6 loopback', 'listening on ::1', 'listening on [Filtered:ip]'],
    ['IPv6 with a zone', 'peer fe80::1ff:fe23:4567:890a%eth0 gone', 'peer [Filtered:ip]%eth0 gone'],
    ['IPv4-mapped IPv6', 'addr ::ffff:192.0.2.128.', 'addr [Filtered:ip].'],
    ['IPv6 after a label', 'addr:fe80::1 down', 'addr:[Filtered:ip] down'],
    ['IPv6 full with an IPv4 tail (six colons, no ::)', 'nat64 64:ff9b:0:0:0:0:192.0.2.33 up', 'nat64 [Filtered:ip] up'],
  ])('replaces %s', (_, text, expected) => {
    expect(applied(ipRule, text).text).toBe(expected);
  });

  test.each([
    ['a version', 'web@1.4.2'],
    ['a v-version of four parts', 'v1.2.3.4'],
    ['a Windows build', '10.0.19045.2965'],
    ['a time', 'at 10:00:00 sharp'],
    ['an ISO time', '2026-11-25T10:00:00.123Z'],
    ['a C++ name', 'std::vector<int>::size'],
    ['a MAC address', '00:1a:2b:3c:4d:5e'],
    ['numbers over 255', '300.1.1.1'],
    ['a ratio', 'ratio 16:9'],
    ["a stack line's line and column", '    at f (https://shop.example.com/app.js:12:345)'],
  ])('keeps %s', (_, text) => {
    expect(applied(ipRule, text)).toEqual({ text, count: 0 });
  });

  test('reads the address forms', () => {
    expect(['127.0.0.1', '0.0.0.0', '255.255.255.255'].every(isIpv4)).toBe(true);
    expect(['01.2.3.4', '1.2.3', '256.1.1.1'].some(isIpv4)).toBe(false);
    expect(['::', ':::1', '1:2:3:4:5:6:7', '1::2::3', 'g::1', 'a::b', 'db::cafe', '0::0', '::2'].some(isIpv6)).toBe(false);
    expect(['::1', '1:2:3:4:5:6:7:8', '::ffff:1.2.3.4', 'fe80::1', '2001:db8::', 'dead:beef::cafe'].every(isIpv6)).toBe(true);
  });

  test('a long run of hex digits and colons is read once (linear time)', () => {
    const text = `${'a:'.repeat(100_000)}g`;
    const started = process.cpuUsage();
    expect(applied(ipRule, text).count).toBe(0);
    const { user, system } = process.cpuUsage(started);
    expect((user + system) / 1000).toBeLessThan(1000);
  });
});
