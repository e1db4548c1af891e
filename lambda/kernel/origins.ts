import { MAX_ORIGINS_PER_KEY } from './limits';

/**
 * Website origins of publishable keys (docs/ingest-api.md#keys-and-origins):
 * normalized and checked when a key is issued, matched against
 * the `Origin` header of every POST.
 *
 * An origin is `scheme://host[:port]`: http or https, the host lowercase
 * (an international name in its ASCII form, as browsers send it), the
 * default port (80, 443) dropped, no path, query, fragment or user.
 * `https://*.example.com` stands for every subdomain of example.com at any
 * depth, never example.com itself, and never a look-alike such as
 * evilexample.com or example.com.evil.io: the host must end with
 * ".example.com" and have something before it. A wildcard is only the whole
 * first label and needs a registrable-looking name after it (two labels or
 * more, not an IP address): `*.com` and `*.localhost` are refused. Nothing
 * matches localhost (or any host) unless listed: `http://localhost:5173` is
 * allowed only on that port.
 */

export type OriginCheck = { ok: true; origin: string } | { ok: false; problem: string };

const WILDCARD = '*.';
/** Scheme, then `://`, then the rest. */
const SCHEMED = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/(.*)$/s;
const quote = (value: string): string => JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);

/** Host and port of `scheme://rest`, as the WHATWG URL parser (so browsers) normalize them; undefined when it is no origin. */
function parseHostPort(scheme: string, rest: string): { host: string; port: string } | { problem: string } {
  if (rest === '') return { problem: 'has no host' };
  if (/[/?#]/.test(rest.replace(/\/$/, ''))) return { problem: 'has a path, query or fragment: an origin is scheme://host[:port] only' };
  if (rest.includes('@')) return { problem: 'has a user name: an origin is scheme://host[:port] only' };
  let url: URL;
  try {
    url = new URL(`${scheme}://${rest}`);
  } catch {
    return { problem: 'has no valid host' };
  }
  if (url.hostname === '') return { problem: 'has no host' };
  return { host: url.hostname, port: url.port };
}

/**
 * An origin a key may be bound to, normalized; or why not. Refuses `*`,
 * `null`, schemes other than http and https, paths, and malformed wildcards.
 */
export function normalizeAllowedOrigin(raw: string): OriginCheck {
  const value = raw.trim();
  if (value === '') return { ok: false, problem: 'an empty origin is not allowed' };
  if (value === '*')
    return { ok: false, problem: 'origin * (any website) is not allowed: list each website, like https://app.example.com or https://*.example.com' };
  if (value.toLowerCase() === 'null') {
    return { ok: false, problem: 'origin null is not allowed: sandboxed and file:// pages send it, so it would admit any of them' };
  }
  const schemed = SCHEMED.exec(value);
  if (!schemed) return { ok: false, problem: `origin ${quote(value)} must look like https://app.example.com (scheme://host[:port])` };
  const scheme = (schemed[1] as string).toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') {
    return { ok: false, problem: `origin ${quote(value)} must use http or https, not ${scheme}` };
  }
  let rest = schemed[2] as string;
  const wildcard = rest.startsWith(WILDCARD);
  if (wildcard) rest = rest.slice(WILDCARD.length);
  if (rest.includes('*')) {
    return { ok: false, problem: `origin ${quote(value)}: a wildcard may only be the whole first label, like https://*.example.com` };
  }
  const parsed = parseHostPort(scheme, rest);
  if ('problem' in parsed) return { ok: false, problem: `origin ${quote(value)} ${parsed.problem}` };
  const { host, port } = parsed;
  if (wildcard) {
    const labels = host.replace(/\.$/, '').split('.');
    const last = labels[labels.length - 1] ?? '';
    if (host.startsWith('[') || labels.length < 2 || /^\d+$/.test(last) || /^0x[0-9a-f]+$/i.test(last)) {
      return {
        ok: false,
        problem: `origin ${quote(value)}: a wildcard needs a domain of two labels or more after it, like https://*.example.com (not *.com, *.localhost or an IP address)`,
      };
    }
  }
  return { ok: true, origin: `${scheme}://${wildcard ? WILDCARD : ''}${host}${port ? `:${port}` : ''}` };
}

export type OriginListCheck = { ok: true; origins: string[] } | { ok: false; problem: string };

/** The origins of a new key: each normalized, duplicates dropped, 1 to 50 of them. */
export function normalizeOriginList(raws: readonly string[]): OriginListCheck {
  const origins: string[] = [];
  for (const raw of raws) {
    const checked = normalizeAllowedOrigin(raw);
    if (!checked.ok) return checked;
    if (!origins.includes(checked.origin)) origins.push(checked.origin);
  }
  if (origins.length === 0) return { ok: false, problem: 'a publishable key needs at least one origin (the website it is used on)' };
  if (origins.length > MAX_ORIGINS_PER_KEY) {
    return {
      ok: false,
      problem: `a publishable key takes at most ${MAX_ORIGINS_PER_KEY} origins (got ${origins.length}): use a wildcard like https://*.example.com`,
    };
  }
  return { ok: true, origins };
}

/**
 * The `Origin` header of a request as a normalized origin, or undefined
 * when it is none a key could list (`null`, another scheme, garbage).
 * Browsers send the serialized origin already; this only lowercases and
 * drops a default port, so a hand-written header compares the same way.
 */
export function normalizeRequestOrigin(header: string): string | undefined {
  const schemed = SCHEMED.exec(header.trim());
  if (!schemed) return undefined;
  const scheme = (schemed[1] as string).toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') return undefined;
  const rest = schemed[2] as string;
  // A browser serializes an origin without a trailing slash: a header with one is hand-made, and no origin.
  if (rest.includes('*') || rest.endsWith('/')) return undefined;
  const parsed = parseHostPort(scheme, rest);
  if ('problem' in parsed) return undefined;
  return `${scheme}://${parsed.host}${parsed.port ? `:${parsed.port}` : ''}`;
}

/** Scheme, host and port of a normalized origin. */
function partsOf(origin: string): { scheme: string; host: string; port: string } {
  const at = origin.indexOf('://');
  const scheme = origin.slice(0, at);
  const hostPort = origin.slice(at + 3);
  // An IPv6 host is bracketed: the port follows the closing bracket.
  const colon = hostPort.startsWith('[') ? hostPort.indexOf(':', hostPort.indexOf(']')) : hostPort.lastIndexOf(':');
  return colon === -1 ? { scheme, host: hostPort, port: '' } : { scheme, host: hostPort.slice(0, colon), port: hostPort.slice(colon + 1) };
}

/** Whether a normalized request origin is the allowed one, or a subdomain of a wildcard one (same scheme and port). */
export function originMatches(allowed: string, origin: string): boolean {
  if (!allowed.includes(`://${WILDCARD}`)) return allowed === origin;
  const pattern = partsOf(allowed.replace(`://${WILDCARD}`, '://'));
  const actual = partsOf(origin);
  if (pattern.scheme !== actual.scheme || pattern.port !== actual.port) return false;
  const suffix = `.${pattern.host}`;
  if (!actual.host.endsWith(suffix)) return false;
  // One or more whole labels before the suffix: never the apex, never an empty label.
  const head = actual.host.slice(0, -suffix.length);
  return head !== '' && head.split('.').every((label) => label !== '');
}

/** Whether a normalized request origin is on a key's list. */
export function originAllowed(allowed: readonly string[], origin: string): boolean {
  return allowed.some((entry) => originMatches(entry, origin));
}
