import { domainToASCII } from 'node:url';

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//;
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
/** A host name of two labels or more (exported for the linear-time check of every pattern, test/repo/linear-regexes.test.ts). */
export const HOSTNAME = new RegExp(`^(?=.{1,253}$)${LABEL}(?:\\.${LABEL})+$`);

/**
 * Normalizes a company domain to a bare lowercase host (docs/contacts-api.md#upsert-a-contact--post-apiv1contacts): scheme,
 * leading `www.`, path (including a trailing slash), port and case are
 * dropped, and an international name takes its ASCII (punycode) form, so
 * `münchen.de` and `xn--mnchen-3ya.de` are one company. Returns undefined
 * when what is left is not a host name.
 *
 *   normalizeDomain('https://www.Acme.io/') === 'acme.io'
 */
export function normalizeDomain(raw: string): string | undefined {
  let host = raw.trim().toLowerCase().replace(SCHEME, '').replace(/^\/\//, '');
  host = host.split(/[/?#]/, 1)[0] ?? '';
  host = host.slice(host.lastIndexOf('@') + 1); // user:pass@ in a pasted URL
  host = host.replace(/:\d*$/, '').replace(/\.$/, '');
  // Only strip `www.` when a registrable name is left ("www.com" stays).
  if (host.startsWith('www.') && host.indexOf('.', 4) !== -1) host = host.slice(4);
  const ascii = domainToASCII(host);
  return ascii && HOSTNAME.test(ascii) ? ascii : undefined;
}
