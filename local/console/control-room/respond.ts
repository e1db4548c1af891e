import type { ServerResponse } from 'node:http';
import type { Html } from './html';
import { SECURITY_HEADERS } from './security';

/** An HTML page, with the security headers every answer carries. */
export function sendHtml(res: ServerResponse, status: number, body: Html): void {
  const bytes = Buffer.from(body.text, 'utf8');
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'text/html; charset=utf-8', 'content-length': bytes.length });
  res.end(bytes);
}

/** A JSON object (nosniff and same-origin resource policy come with SECURITY_HEADERS; never any CORS header). */
export function sendJson(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  const bytes = Buffer.from(JSON.stringify(body), 'utf8');
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length });
  res.end(bytes);
}

/** Plain text: refusals before any page is built. */
export function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  const bytes = Buffer.from(`${text}\n`, 'utf8');
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8', 'content-length': bytes.length, ...headers });
  res.end(bytes);
}

/** See other: after a login, a finder, a filter. Only paths of this app (they start with one `/`). */
export function redirect(res: ServerResponse, location: string, headers: Record<string, string> = {}): void {
  const safe = location.startsWith('/') && !location.startsWith('//') && !location.startsWith('/\\') ? location : '/';
  res.writeHead(303, { ...SECURITY_HEADERS, location: safe, 'content-length': 0, ...headers });
  res.end();
}
