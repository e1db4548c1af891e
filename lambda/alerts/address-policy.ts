import { isIPv4, isIPv6 } from 'node:net';

/**
 * Which addresses a webhook may reach (docs/alerts.md#outbound-requests):
 * public unicast only. Pure: the address as text in, the reason it is
 * refused (or undefined) out. IPv4-mapped, IPv4-compatible, NAT64 and 6to4
 * IPv6 addresses are judged by the IPv4 address they carry, so `::ffff:10.0.0.1`
 * is as private as `10.0.0.1`.
 */

export type RefusedKind =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared address space (CGNAT)'
  | 'link-local'
  | 'cloud metadata'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'benchmarking'
  | 'reserved'
  | 'not an IP address';

export interface Refusal {
  kind: RefusedKind;
  /** The range it falls in, as CIDR. */
  range: string;
}

export interface AddressPolicy {
  /** `npm start` only: loopback destinations (127.0.0.0/8, ::1) are allowed, so that a local receiver can be tested. */
  allowLoopback: boolean;
}

/** What a deployed stack allows: public addresses only. */
export const DEPLOYED_POLICY: AddressPolicy = { allowLoopback: false };
/** What `npm start` allows: loopback too, nothing else private. */
export const LOCAL_POLICY: AddressPolicy = { allowLoopback: true };

type V4Range = [base: number, bits: number, kind: RefusedKind, cidr: string];

const v4 = (text: string): number => text.split('.').reduce((value, part) => value * 256 + Number(part), 0);

// Most specific first: the metadata address sits inside link-local. (IANA's special-purpose registry, RFC 6890.)
const V4_RANGES: V4Range[] = (
  [
    ['169.254.169.254', 32, 'cloud metadata'],
    ['100.100.100.200', 32, 'cloud metadata'],
    ['255.255.255.255', 32, 'broadcast'],
    ['0.0.0.0', 8, 'unspecified'],
    ['10.0.0.0', 8, 'private'],
    ['100.64.0.0', 10, 'shared address space (CGNAT)'],
    ['127.0.0.0', 8, 'loopback'],
    ['169.254.0.0', 16, 'link-local'],
    ['172.16.0.0', 12, 'private'],
    ['192.0.0.0', 24, 'reserved'],
    ['192.0.2.0', 24, 'documentation'],
    ['192.88.99.0', 24, 'reserved'],
    ['192.168.0.0', 16, 'private'],
    ['198.18.0.0', 15, 'benchmarking'],
    ['198.51.100.0', 24, 'documentation'],
    ['203.0.113.0', 24, 'documentation'],
    ['224.0.0.0', 4, 'multicast'],
    ['240.0.0.0', 4, 'reserved'],
  ] as const
).map(([base, bits, kind]) => [v4(base), bits, kind, `${base}/${bits}`]);

function refusalOfV4(address: number): Refusal | undefined {
  for (const [base, bits, kind, range] of V4_RANGES) {
    const size = 2 ** (32 - bits);
    if (address >= base && address < base + size) return { kind, range };
  }
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part and `::` expanded). */
function groupsOf(text: string): number[] {
  let address = text.toLowerCase();
  const zone = address.indexOf('%');
  if (zone !== -1) address = address.slice(0, zone);
  // The dotted part follows the last colon (anchored at both ends: a pattern searching for it was quadratic in a long dotted run).
  const dotted = address.slice(address.lastIndexOf(':') + 1);
  if (/^\d+\.\d+\.\d+\.\d+$/.test(dotted)) {
    const value = v4(dotted);
    address = `${address.slice(0, address.length - dotted.length)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const [head = '', tail] = address.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

const v4Of = (high: number, low: number) => high * 65536 + low;

function refusalOfV6(groups: number[]): Refusal | undefined {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const zeroTo = (count: number) => groups.slice(0, count).every((group) => group === 0);
  if (zeroTo(8)) return { kind: 'unspecified', range: '::/128' };
  if (zeroTo(7) && g7 === 1) return { kind: 'loopback', range: '::1/128' };
  // IPv4-mapped ::ffff:a.b.c.d: the IPv4 address is what a socket reaches.
  if (zeroTo(5) && g5 === 0xffff) return refusalOfV4(v4Of(g6, g7));
  // IPv4-compatible ::a.b.c.d (deprecated): nothing public uses it.
  if (zeroTo(6)) return { kind: 'reserved', range: '::/96' };
  // NAT64's well-known prefix carries the IPv4 destination in its last 32 bits.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return refusalOfV4(v4Of(g6, g7));
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return { kind: 'private', range: '64:ff9b:1::/48' };
  // 6to4 carries an IPv4 address in bits 16-47.
  if (g0 === 0x2002) return refusalOfV4(v4Of(g1, g2));
  if (g0 === 0x0100 && g1 === 0 && g2 === 0 && g3 === 0) return { kind: 'reserved', range: '100::/64' };
  if (g0 === 0x2001 && g1 === 0x0db8) return { kind: 'documentation', range: '2001:db8::/32' };
  if (g0 === 0x2001 && g1 < 0x0200) return { kind: 'reserved', range: '2001::/23' };
  // The AWS instance metadata service's IPv6 address, inside the unique-local range.
  if (g0 === 0xfd00 && g1 === 0x0ec2 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0 && g6 === 0 && g7 === 0x254) {
    return { kind: 'cloud metadata', range: 'fd00:ec2::254/128' };
  }
  if ((g0 & 0xfe00) === 0xfc00) return { kind: 'private', range: 'fc00::/7' };
  if ((g0 & 0xffc0) === 0xfe80) return { kind: 'link-local', range: 'fe80::/10' };
  if ((g0 & 0xffc0) === 0xfec0) return { kind: 'private', range: 'fec0::/10' };
  if ((g0 & 0xff00) === 0xff00) return { kind: 'multicast', range: 'ff00::/8' };
  // Only global unicast (2000::/3) is allocated for the Internet.
  if ((g0 & 0xe000) !== 0x2000) return { kind: 'reserved', range: 'outside 2000::/3' };
  return undefined;
}

/** Why this address is no webhook destination, or undefined for a public unicast address. */
export function refusalOf(address: string): Refusal | undefined {
  if (isIPv4(address)) return refusalOfV4(v4(address));
  if (isIPv6(address)) return refusalOfV6(groupsOf(address));
  return { kind: 'not an IP address', range: '-' };
}

/** The refusal under a policy: loopback passes where the policy allows it. */
export function refusalUnder(address: string, policy: AddressPolicy): Refusal | undefined {
  const refusal = refusalOf(address);
  return refusal?.kind === 'loopback' && policy.allowLoopback ? undefined : refusal;
}
