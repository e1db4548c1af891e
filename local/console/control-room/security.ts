import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';

/**
 * What keeps other pages and other machines out of the control room (see
 * docs/control-room-app.md, "Security model"):
 *   - Host: exactly 127.0.0.1:<port> or localhost:<port>, checked before
 *     routing (a DNS-rebinding page arrives with its own host name);
 *   - session: a per-process secret, printed in the URL at start, swapped
 *     for an HttpOnly, SameSite=Strict cookie; every page and call needs it;
 *   - requests another page started: a browser says in Sec-Fetch-Site who
 *     made a request, on plain HTTP to 127.0.0.1 and localhost too (they are
 *     trustworthy origins); `cross-site` and `same-site` (another port of this
 *     host, whose pages SameSite lets carry the cookie) are refused, pages,
 *     downloads and assets alike. A request without the header (curl, an old
 *     browser) is not trusted for it: the checks below still hold;
 *   - state changes: POST only, with the cookie, the CSRF token, and an
 *     Origin that is exactly the app's own (`null` and every other port count
 *     as foreign: SameSite treats other ports of 127.0.0.1 as the same site).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers on every answer: no framing, no sniffing, no referrer (the login URL carries the secret), no caching. */
export const SECURITY_HEADERS: OutgoingHttpHeaders = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  'cache-control': 'no-store',
};

/**
 * Why a request is refused for who started it, or undefined: Sec-Fetch-Site
 * `same-origin` (the app's own pages) and `none` (an address typed, a
 * bookmark, the printed login URL) go on, as does a request without it.
 */
export function fetchSiteProblem(secFetchSite: string | string[] | undefined): string | undefined {
  const site = Array.isArray(secFetchSite) ? secFetchSite.join(',') : secFetchSite;
  if (site === undefined || site === 'same-origin' || site === 'none') return undefined;
  return `Forbidden: this request was started by another page (Sec-Fetch-Site: ${site}); open the control room from its own pages or the URL it printed`;
}

export interface Session {
  /** The secret the printed URL carries. */
  readonly secret: string;
  /** The cookie's name: one per port, so two control rooms on one machine keep their own. */
  readonly cookieName: string;
  /** Put into every page; sent back in X-CSRF-Token with every state-changing call. */
  readonly csrfToken: string;
  /** The URL to open: it logs the browser in. */
  loginUrl(): string;
  /** Exactly one of the app's own host names with its port. */
  hostAllowed(host: string | undefined): boolean;
  /** The Origin the app's own pages send when served under `host`. */
  originAllowed(origin: string | undefined, host: string | undefined): boolean;
  /** The secret matches (constant-time). */
  secretMatches(value: string | undefined): boolean;
  /** The request carries the session cookie. */
  signedIn(req: IncomingMessage): boolean;
  /** The request carries the CSRF token. */
  csrfMatches(value: string | undefined): boolean;
  /** The Set-Cookie value after a login. */
  sessionCookie(): string;
}

function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The value of one cookie in a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** A session for one process serving on `port`: a fresh 256-bit secret, the CSRF token derived from it. */
export function createSession(port: number, secret: string = randomBytes(32).toString('base64url')): Session {
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const cookieName = `control_room_${port}`;
  const csrfToken = createHmac('sha256', secret).update('csrf').digest('base64url');
  return {
    secret,
    cookieName,
    csrfToken,
    loginUrl: () => `http://127.0.0.1:${port}/login?token=${secret}`,
    hostAllowed: (host) => host !== undefined && hosts.has(host),
    originAllowed: (origin, host) => origin !== undefined && host !== undefined && hosts.has(host) && origin === `http://${host}`,
    secretMatches: (value) => sameSecret(value, secret),
    signedIn: (req) => sameSecret(cookieValue(req.headers.cookie, cookieName), secret),
    csrfMatches: (value) => sameSecret(value, csrfToken),
    sessionCookie: () => `${cookieName}=${secret}; Path=/; HttpOnly; SameSite=Strict`,
  };
}
