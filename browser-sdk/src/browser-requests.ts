import type { RequestMaker } from './transport.js';

/**
 * The transport's requests in a browser (transport.ts): `fetch` while the
 * page lives, `navigator.sendBeacon` when it goes. Thin on purpose: every
 * decision is the transport's, testable without a browser.
 */
export const browserRequests = (): RequestMaker => ({
  async send({ url, body, keepalive }) {
    // A string body goes as text/plain: a "simple" request, never preflighted. No cookies: the key is the credential.
    const res = await fetch(url, { method: 'POST', body, keepalive, credentials: 'omit' });
    const json: unknown = await res.json().catch(() => ({}));
    const answer = json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
    return { status: res.status, body: answer, retryAfter: res.headers.get('Retry-After') };
  },
  beacon: (url, body) => navigator.sendBeacon?.(url, body) ?? false,
  origin: location.origin,
});
