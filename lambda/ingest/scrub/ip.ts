import { marker, type ScrubRule } from './rule';

/**
 * IP addresses in free text (a server's log line in a message, an address a
 * page printed): IPv4 as four dotted numbers of 0 to 255, IPv6 in its full,
 * compressed (`::`) and IPv4-ended forms, with a zone (`%eth0`) or in a URL's
 * brackets. What only looks like one stays: a version (`v1.2.3.4`,
 * `1.4.2`), a Windows build (`10.0.19045.2965`), a time (`10:00:00`), a C++
 * name (`std::vector`), a MAC address.
 *
 * IPv6 is found by hand: every maximal run of hex digits, colons and dots is
 * read once and parsed, so a long run costs its length, never more.
 */
const IPV4 = /(?<![0-9A-Za-z.])(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?![0-9A-Za-z]|\.\d)/g;

const octet = (text: string | undefined): boolean => text !== undefined && Number(text) <= 255 && (text.length === 1 || text[0] !== '0');

/** Whether a text is an IPv4 address: four octets, no leading zeros. */
export function isIpv4(text: string): boolean {
  const parts = text.split('.');
  return parts.length === 4 && parts.every((part) => /^\d{1,3}$/.test(part) && octet(part));
}

const HEX_GROUP = /^[0-9a-f]{1,4}$/i;

/** Whether a text is an IPv6 address (RFC 4291's text forms, without a zone). */
export function isIpv6(text: string): boolean {
  if (!text.includes(':')) return false;
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const groupsOf = (half: string): string[] | undefined => (half === '' ? [] : half.split(':'));
  const head = groupsOf(halves[0] as string);
  const tail = halves.length === 2 ? groupsOf(halves[1] as string) : [];
  if (!head || !tail) return false;
  const groups = [...head, ...tail];
  let count = groups.length;
  const last = groups[groups.length - 1];
  // An IPv4 tail (`::ffff:10.0.0.1`) stands for two groups.
  if (last?.includes('.')) {
    if (!isIpv4(last)) return false;
    groups.pop();
    count += 1;
  }
  if (!groups.every((group) => HEX_GROUP.test(group))) return false;
  if (halves.length === 1) return count === 8;
  // Compressed, it must look like an address, not a name of two hex-looking parts (`a::b`, `db::cafe`, `0::0`):
  // the loopback, or two groups or more with 4 hex digits or more, a decimal digit among them unless there are 3 groups or more.
  if (text === '::1') return true;
  const hexDigits = groups.join('').length;
  return count >= 2 && count <= 7 && hexDigits >= 4 && (/\d/.test(text) || count >= 3);
}

const isHexColonDot = (code: number): boolean =>
  (code >= 48 && code <= 58) /* 0-9 : */ || code === 46 || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
const isWordChar = (code: number): boolean => (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;

/** The IPv6 addresses of a text replaced: each maximal run of hex digits, colons and dots that is one (a leading colon aside, as in `addr:fe80::1`). */
function replaceIpv6(text: string, replaced: () => void): string {
  let out = '';
  let copied = 0;
  let at = 0;
  while (at < text.length) {
    if (!isHexColonDot(text.charCodeAt(at))) {
      at += 1;
      continue;
    }
    const start = at;
    let colons = 0;
    let doubled = false;
    for (; at < text.length && isHexColonDot(text.charCodeAt(at)); at += 1) {
      if (text.charCodeAt(at) !== 58) continue;
      colons += 1;
      if (at > start && text.charCodeAt(at - 1) === 58) doubled = true;
    }
    // Every IPv6 address has two colons or more: most runs (a word's hex letters, `:120:17`… ) end here.
    if (colons < 2) continue;
    // Uncompressed (no `::`), it has seven (six before an IPv4 tail): a stack line's `:12:345` is none, not parsed.
    if (colons < 6 && !doubled) continue;
    // A run inside a word (`Bad::cast`, `0xdead:beefy`) is not an address.
    const before = start > 0 ? text.charCodeAt(start - 1) : -1;
    const after = at < text.length ? text.charCodeAt(at) : -1;
    if (isWordChar(after) || (isWordChar(before) && text.charCodeAt(start) !== 58)) continue;
    let run = text.slice(start, at);
    let from = start;
    if (isWordChar(before) && run.startsWith(':') && !run.startsWith('::')) {
      run = run.slice(1);
      from += 1;
    }
    // A sentence's full stop after an address is not part of it.
    const trailingDot = run.endsWith('.') ? 1 : 0;
    const candidate = run.slice(0, run.length - trailingDot);
    if (!isIpv6(candidate)) continue;
    replaced();
    out += `${text.slice(copied, from)}${marker('ip')}`;
    copied = from + candidate.length;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

export const ipRule: ScrubRule = {
  name: 'ip',
  apply: (text, replaced) => {
    let out = text;
    if (out.includes(':')) out = replaceIpv6(out, replaced);
    if (/\d\.\d/.test(out)) {
      out = out.replace(IPV4, (whole, a: string, b: string, c: string, d: string) => {
        if (![a, b, c, d].every(octet)) return whole;
        replaced();
        return marker('ip');
      });
    }
    return out;
  },
};
