import { createHmac } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';

/**
 * The client address, as the per-address limits and the log see it. The
 * full address is never stored or logged: the limiter keys its items by a
 * keyed hash, and the log line carries only the network.
 *
 * IPv6 clients are counted by their /64 prefix (one subscriber line; a
 * client can pick any address inside it), IPv4 by the whole address; an
 * IPv4-mapped IPv6 address (::ffff:1.2.3.4, how a dual-stack socket reports
 * an IPv4 client) is the IPv4 address.
 */

/** The eight 16-bit groups of an IPv6 address, `::` expanded; undefined when it is none. */
function ipv6Groups(address: string): number[] | undefined {
  const [head = '', tail] = address.split('::');
  const part = (text: string) => (text === '' ? [] : text.split(':'));
  const given = [...part(head), ...(tail === undefined ? [] : part(tail))];
  // A trailing dotted IPv4 part stands for two groups.
  const last = given[given.length - 1];
  const groups: number[] = [];
  for (const piece of given.slice(0, last?.includes('.') ? -1 : given.length)) groups.push(parseInt(piece, 16));
  if (last?.includes('.')) {
    const [a = 0, b = 0, c = 0, d = 0] = last.split('.').map(Number);
    groups.push((a << 8) | b, (c << 8) | d);
  }
  const missing = 8 - groups.length;
  if (tail === undefined) return missing === 0 ? groups : undefined;
  const at = part(head).length;
  return [...groups.slice(0, at), ...new Array<number>(missing).fill(0), ...groups.slice(at)];
}

/** The address a limit counts: an IPv4 address, an IPv6 /64 prefix, or "unknown". */
export function clientSubject(sourceIp: string | null | undefined): string {
  const ip = (sourceIp ?? '').trim();
  if (isIPv4(ip)) return ip;
  if (!isIPv6(ip)) return 'unknown';
  const groups = ipv6Groups(ip.split('%')[0] as string);
  if (!groups) return 'unknown';
  // ::ffff:a.b.c.d — an IPv4 client on a dual-stack socket.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/**
 * The per-address limiter's name for a client: HMAC-SHA256 of the address
 * (as counted above) keyed with the publishable key itself, which is never
 * stored: the table holds no address, and without the key a stored name
 * cannot be tested against candidate addresses. 128 bits, hex.
 */
export function addressHash(keySecret: string, sourceIp: string | null | undefined): string {
  return createHmac('sha256', keySecret).update(clientSubject(sourceIp)).digest('hex').slice(0, 32);
}

/** What the request log may say of the client: its /24 (IPv4) or /48 (IPv6) network, never the address. */
export function clientNetwork(sourceIp: string | null | undefined): string | undefined {
  const subject = clientSubject(sourceIp);
  if (subject === 'unknown') return undefined;
  if (isIPv4(subject)) return `${subject.split('.').slice(0, 3).join('.')}.0/24`;
  return `${subject.split(':').slice(0, 3).join(':')}::/48`;
}
