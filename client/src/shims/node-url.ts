/**
 * `domainToASCII` of node:url with the platform's WHATWG URL, for the
 * service's email rule (lambda/kernel/email.ts) compiled into the client:
 * the client runs wherever `fetch` does, not only on Node. Node computes it
 * the same way (its host parser on a special-scheme URL, '' when the host is
 * refused); test/client/same-rules.test.ts holds the two together.
 */
export function domainToASCII(domain: string): string {
  if (domain === '') return '';
  const url = new URL('ws://x');
  url.hostname = domain;
  if (url.hostname !== 'x') return url.hostname;
  // Unchanged: the setter refused the host, unless it really is "x".
  const probe = new URL('ws://y');
  probe.hostname = domain;
  return probe.hostname === 'x' ? 'x' : '';
}
