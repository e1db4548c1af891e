import { isIP } from 'node:net';
import { refusalUnder, type AddressPolicy } from './address-policy';

/** Longest URL a destination may have. */
export const URL_MAX = 2000;

export type UrlCheck = { ok: true; url: string } | { ok: false; problem: string };

/** The host of a parsed URL as an address when it is one (`[::1]` → `::1`), else undefined. */
export function literalAddress(url: URL): string | undefined {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) ? host : undefined;
}

/** `localhost` and its subdomains always name the loopback interface (RFC 6761). */
const isLocalhostName = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/**
 * A webhook URL as a destination may have it (docs/alerts.md#outbound-requests):
 * HTTPS, no user name or password, no fragment; a host that is an IP address
 * must be a public one. Under the local policy, plain HTTP is allowed to
 * loopback hosts (`localhost`, 127.0.0.1, [::1]) so a receiver on the same
 * machine can be tested. Host names are checked again once resolved, and at
 * connect time (./guarded-lookup.ts): this is only what the text tells.
 * The URL comes back as the WHATWG parser writes it (so `http://2130706433/`
 * is seen as the 127.0.0.1 it is).
 */
export function checkDestinationUrl(text: string, policy: AddressPolicy): UrlCheck {
  if (text.length > URL_MAX) return { ok: false, problem: `the URL is longer than ${URL_MAX} characters` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, problem: `"${text.slice(0, 100)}" is not a URL: give one like https://hooks.example.com/contacts` };
  }
  if (url.username !== '' || url.password !== '')
    return { ok: false, problem: 'the URL must not hold a user name or password: put a token in its path or query instead' };
  if (url.hash !== '') return { ok: false, problem: 'the URL must not have a fragment (#…): it is never sent' };
  const address = literalAddress(url);
  const loopbackHost = isLocalhostName(url.hostname) || (address !== undefined && refusalUnder(address, { allowLoopback: false })?.kind === 'loopback');
  if (url.protocol === 'http:') {
    if (!(policy.allowLoopback && loopbackHost)) {
      return {
        ok: false,
        problem: policy.allowLoopback
          ? 'the URL must use https:// (plain http:// only to this machine: localhost, 127.0.0.1 or [::1])'
          : 'the URL must use https://',
      };
    }
  } else if (url.protocol !== 'https:') {
    return { ok: false, problem: `the URL must use https://, not ${url.protocol}//` };
  }
  if (address !== undefined) {
    const refusal = refusalUnder(address, policy);
    if (refusal) return { ok: false, problem: `${address} is a ${refusal.kind} address (${refusal.range}): webhooks go to public addresses only` };
  } else if (isLocalhostName(url.hostname) && !policy.allowLoopback) {
    return { ok: false, problem: `${url.hostname} is this machine (loopback): webhooks go to public addresses only` };
  }
  return { ok: true, url: url.href };
}
