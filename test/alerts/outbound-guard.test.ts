import { DEPLOYED_POLICY, LOCAL_POLICY, refusalOf } from '../../lambda/alerts/address-policy';
import { checkDestinationUrl } from '../../lambda/alerts/destination-url';
import type { Resolve } from '../../lambda/alerts/guarded-lookup';
import { ANSWER_KEPT_BYTES, webhookSender } from '../../lambda/alerts/webhook-sender';
import { startReceiver, type Receiver } from '../support/alerts';

/**
 * Outbound requests that cannot be turned against the network
 * (docs/alerts.md#outbound-requests): a test per refusal, on addresses and
 * on URLs; the sender with a stub resolver (never the network), and the
 * socket's own lookup refusing a DNS answer that changed after the check.
 */
describe('addresses a webhook may not reach', () => {
  test.each([
    ['0.0.0.0', 'unspecified'],
    ['0.12.34.56', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.10', 'private'],
    ['100.64.0.1', 'shared address space (CGNAT)'],
    ['100.127.255.254', 'shared address space (CGNAT)'],
    ['169.254.10.20', 'link-local'],
    ['169.254.169.254', 'cloud metadata'],
    ['100.100.100.200', 'cloud metadata'],
    ['224.0.0.251', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
  ])('IPv4 %s is refused as %s', (address, kind) => {
    expect(refusalOf(address)?.kind).toBe(kind);
  });

  test.each([
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fec0::1', 'private'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['100::1', 'reserved'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'cloud metadata'],
    ['::ffff:100.64.1.1', 'shared address space (CGNAT)'],
    ['::10.1.2.3', 'reserved'],
    ['64:ff9b::a01:203', 'private'],
    ['64:ff9b::a9fe:a9fe', 'cloud metadata'],
    ['2002:a00:1::1', 'private'],
    ['2002:7f00:1::1', 'loopback'],
    ['3fff::1', undefined],
    ['4000::1', 'reserved'],
  ])('IPv6 %s is refused as %s (IPv4-mapped, NAT64 and 6to4 by the IPv4 address they carry)', (address, kind) => {
    expect(refusalOf(address)?.kind).toBe(kind === undefined ? undefined : kind);
  });

  test.each([
    '93.184.216.34',
    '1.1.1.1',
    '8.8.8.8',
    '2606:4700:4700::1111',
    '::ffff:93.184.216.34',
    '64:ff9b::5db8:d822',
    '172.32.0.1',
    '100.128.0.1',
    '11.0.0.1',
  ])('the public address %s is allowed', (address) => {
    expect(refusalOf(address)).toBeUndefined();
  });
});

describe('destination URLs', () => {
  test.each([
    ['http://hooks.example.com/a', 'must use https://'],
    ['ftp://hooks.example.com/a', 'must use https://, not ftp://'],
    ['https://user:pass@hooks.example.com/a', 'user name or password'],
    ['https://hooks.example.com/a#frag', 'fragment'],
    ['https://10.0.0.5/a', 'private address'],
    ['https://[::1]/a', 'loopback address'],
    ['https://[::ffff:a9fe:a9fe]/latest/meta-data', 'cloud metadata address'],
    ['https://2130706433/a', '127.0.0.1 is a loopback address'],
    ['https://0x7f.1/a', '127.0.0.1 is a loopback address'],
    ['https://localhost/a', 'this machine (loopback)'],
    ['not a url', 'is not a URL'],
    [`https://hooks.example.com/${'a'.repeat(2000)}`, 'longer than'],
  ])('a deployed stack refuses %.60s', (url, problem) => {
    const checked = checkDestinationUrl(url, DEPLOYED_POLICY);
    expect(checked.ok).toBe(false);
    expect(checked.ok ? '' : checked.problem).toContain(problem);
  });

  test('npm start allows plain http to this machine, and nothing else private', () => {
    expect(checkDestinationUrl('http://localhost:9000/hook', LOCAL_POLICY)).toEqual({ ok: true, url: 'http://localhost:9000/hook' });
    expect(checkDestinationUrl('http://127.0.0.1:9000/hook', LOCAL_POLICY).ok).toBe(true);
    expect(checkDestinationUrl('http://[::1]:9000/hook', LOCAL_POLICY).ok).toBe(true);
    expect(checkDestinationUrl('http://192.168.1.5/hook', LOCAL_POLICY).ok).toBe(false);
    expect(checkDestinationUrl('https://10.0.0.5/hook', LOCAL_POLICY).ok).toBe(false);
    expect(checkDestinationUrl('http://hooks.example.com/hook', LOCAL_POLICY).ok).toBe(false);
  });

  test('a public https URL passes, as the URL parser writes it', () => {
    expect(checkDestinationUrl('HTTPS://Hooks.Example.com:8443/a?token=1', DEPLOYED_POLICY)).toEqual({
      ok: true,
      url: 'https://hooks.example.com:8443/a?token=1',
    });
  });
});

describe('the sender', () => {
  let receiver: Receiver;
  beforeEach(async () => {
    receiver = await startReceiver(
      (_n, request) => (request.path === '/moved' ? 302 : request.path === '/big' ? 200 : 204),
      () => 'x'.repeat(100_000),
    );
  });
  afterEach(() => receiver.close());

  const request = (url: string) => ({ url, headers: { 'content-type': 'application/json' }, body: '{}' });
  /** A stub resolver: each call answers the next of `answers` (the last one again when they run out). */
  const stub = (...answers: string[]): Resolve & { calls: number } => {
    const resolve = (async () => {
      const address = answers[Math.min(resolve.calls, answers.length - 1)] as string;
      resolve.calls += 1;
      return [{ address, family: address.includes(':') ? 6 : 4 }];
    }) as unknown as Resolve & { calls: number };
    resolve.calls = 0;
    return resolve;
  };

  test('a host resolving to a private address is refused before anything is sent', async () => {
    const send = webhookSender({ policy: DEPLOYED_POLICY, resolve: stub('10.20.30.40') });
    const result = await send(request('https://hooks.example.com/hook'));
    expect(result).toMatchObject({ ok: false, refused: true, error: expect.stringContaining('resolves to 10.20.30.40, a private address') });
  });

  test('a host with one private address among public ones is refused', async () => {
    const resolve: Resolve = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '::ffff:169.254.169.254', family: 6 },
    ];
    const result = await webhookSender({ policy: DEPLOYED_POLICY, resolve })(request('https://hooks.example.com/hook'));
    expect(result).toMatchObject({ refused: true, error: expect.stringContaining('cloud metadata') });
  });

  test('a DNS answer that turns to loopback between the check and the connection (a rebind) is refused at connect time: nothing reaches the server', async () => {
    const resolve = stub('93.184.216.34', '127.0.0.1');
    const send = webhookSender({ policy: DEPLOYED_POLICY, resolve });
    const result = await send(request(`https://rebind.example.com:${receiver.port}/hook`));
    expect(resolve.calls).toBe(2);
    expect(result).toMatchObject({ ok: false, refused: true, error: expect.stringContaining('resolves to 127.0.0.1, a loopback address') });
    expect(receiver.connections()).toBe(0);
  });

  test('npm start reaches a receiver on loopback through the same lookup', async () => {
    const result = await webhookSender({ policy: LOCAL_POLICY, resolve: stub('127.0.0.1') })(request(`http://localhost:${receiver.port}/hook`));
    expect(result).toMatchObject({ ok: true, status: 204 });
    expect(receiver.received).toHaveLength(1);
  });

  test('a redirect is an answer like any other: not followed, the delivery failed', async () => {
    const result = await webhookSender({ policy: LOCAL_POLICY })(request(`http://127.0.0.1:${receiver.port}/moved`));
    expect(result).toMatchObject({ ok: false, status: 302, error: expect.stringContaining('redirect not followed') });
    expect(receiver.received.map((entry) => entry.path)).toEqual(['/moved']);
  });

  test(`at most ${ANSWER_KEPT_BYTES} bytes of the answer are kept`, async () => {
    const result = await webhookSender({ policy: LOCAL_POLICY })(request(`http://127.0.0.1:${receiver.port}/big`));
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(result.answer).toHaveLength(ANSWER_KEPT_BYTES);
  });

  test('an answer that never comes ends the attempt at the timeout', async () => {
    const { createServer } = await import('node:http');
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as { port: number }).port;
      const result = await webhookSender({ policy: LOCAL_POLICY, timeoutMs: 300 })(request(`http://127.0.0.1:${port}/hook`));
      expect(result).toMatchObject({ ok: false, error: expect.stringContaining('no answer within 0.3 s') });
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});
