import { isUtf8 } from 'node:buffer';
/**
 * What docs/ingest-api.md say the
 * answer to a request under /ingest/v1/ must be, restated from the documents
 * (not from the code), in docs/ingest-api.md#precedence: route 404 →
 * OPTIONS 204 → method 405 → content type 415 → size 413 → key 401 →
 * origin 403 → per-address limits 429 → JSON 400 → content 422 → the
 * issues' and the key's limits 429 → 202/201/200.
 */
import { headerValues, type FuzzRequest } from './request';
import type { Expectation } from './expectation';
import type { FuzzWorld } from './world';
import { SESSION_BODY_LIMIT_BYTES } from '../../lambda/ingest/sessions/own-session';

/** The ingest body limit: 64 KiB. */
const LIMIT = 64 * 1024;
const ROUTE = /^\/ingest\/v1\/(events|sessions|feature-requests)\/?$/;
const SECRET = /^dfsk_[A-Za-z0-9_-]{16,128}$/;
/** docs/ingest-api.md#cors: an Origin echoed back is `null` or a serialized origin. */
const ECHOABLE = /^(null|[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s/?#,"'<>\\]{1,253})$/;

/** The last value of a field, as the handler's header map holds it. */
const last = (request: FuzzRequest, name: string): string | undefined => headerValues(request, name).at(-1);

/** Content-Type: application/json or text/plain, a charset only if UTF-8. */
function contentTypeOk(value: string | undefined): boolean {
  if (value === undefined || value.trim() === '') return false;
  const [type = '', ...parameters] = value.split(';').map((part) => part.trim().toLowerCase());
  if (type !== 'application/json' && type !== 'text/plain') return false;
  const charset = parameters
    .find((p) => p.startsWith('charset='))
    ?.slice(8)
    .replace(/"/g, '');
  return charset === undefined || charset === 'utf-8' || charset === 'utf8';
}

type KeyVerdict = 'ok' | 'throttled' | 'refused';

/** docs/ingest-api.md#errors, 401: one key, in the header (Bearer) or in ?key=, the same if in both; a secret key anywhere is refused. */
function keyVerdict(request: FuzzRequest, query: string, world: FuzzWorld): { verdict: KeyVerdict; sure: boolean } {
  const header = headerValues(request, 'authorization').filter((v) => v.trim() !== '');
  const inQuery = new URLSearchParams(query)
    .getAll('key')
    .map((v) => v.trim())
    .filter((v) => v !== '');
  const strict = header.length === 1 ? /^[ \t]*bearer +(\S+)[ \t]*$/i.exec(header[0] as string)?.[1] : undefined;
  const loose = header.length === 1 ? /^\s*bearer\s+(\S+)\s*$/i.exec(header[0] as string)?.[1] : undefined;
  if ([strict, loose, ...inQuery].some((k) => k !== undefined && SECRET.test(k))) return { verdict: 'refused', sure: true };
  if (header.length > 1 || inQuery.length > 1) return { verdict: 'refused', sure: true };
  const headerKey = header.length === 1 ? loose : undefined;
  if (header.length === 1 && headerKey === undefined) return { verdict: 'refused', sure: true };
  const [queryKey] = inQuery;
  if (headerKey !== undefined && queryKey !== undefined && headerKey !== queryKey) return { verdict: 'refused', sure: true };
  const k = headerKey ?? queryKey;
  const verdict: KeyVerdict = k === world.ingest.key || k === world.publishableKey ? 'ok' : k === world.ingest.throttledKey ? 'throttled' : 'refused';
  // A separator other than spaces after "Bearer" is not in the RFCs: either answer is fine for it.
  return { verdict, sure: verdict === 'refused' || headerKey === undefined || strict !== undefined };
}

/** docs/keys.md#origins-of-a-publishable-key: scheme://host[:port], lowercase, default port dropped; the wildcard entry admits subdomains only. */
function originAllowed(value: string | undefined, world: FuzzWorld): boolean {
  if (value === undefined) return false;
  const match = /^(https?):\/\/([a-z0-9.-]+)(?::(\d+))?\/?$/i.exec(value.trim());
  if (!match) return false;
  const scheme = (match[1] as string).toLowerCase();
  const host = (match[2] as string).toLowerCase();
  const port = match[3] === undefined || (scheme === 'https' && match[3] === '443') || (scheme === 'http' && match[3] === '80') ? '' : match[3];
  if (value.trim().endsWith('/')) return false;
  const origin = `${scheme}://${host}${port ? `:${port}` : ''}`;
  return world.ingest.origins.some((entry) => {
    if (!entry.includes('://*.')) return entry === origin;
    const [entryScheme, base] = entry.split('://*.') as [string, string];
    if (entryScheme !== scheme || port !== '') return false;
    return (
      host.endsWith(`.${base}`) &&
      host.length > base.length + 1 &&
      !host
        .slice(0, -base.length - 1)
        .split('.')
        .includes('')
    );
  });
}

/** The body as JSON text, or why it is refused with 400. */
function jsonText(body: Buffer): string | undefined {
  if (!isUtf8(body)) return undefined;
  const bom = body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf;
  const text = (bom ? body.subarray(3) : body).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    JSON.parse(text);
    return text;
  } catch {
    return undefined;
  }
}

/** The statuses the ingest contract allows for a request to a path under /ingest/v1/. */
export function ingestExpectation(request: FuzzRequest, path: string, query: string, world: FuzzWorld): Expectation {
  const route = ROUTE.exec(path);
  if (!route) return { statuses: [404], reason: 'no such ingest endpoint' };
  if (request.method === 'OPTIONS') return { statuses: [204], reason: 'preflight' };
  if (request.method !== 'POST') return { statuses: [405], reason: `${request.method} not allowed` };
  if (!contentTypeOk(last(request, 'content-type'))) return { statuses: [415], reason: 'content type' };
  const sessions = route[1] === 'sessions';
  if (request.body.length > (sessions ? SESSION_BODY_LIMIT_BYTES : LIMIT))
    return { statuses: [413], reason: sessions ? 'session body over 2 KiB' : 'body over 64 KiB' };
  const key = keyVerdict(request, query, world);
  let passed: Expectation;
  if (key.verdict === 'refused') passed = { statuses: [401], reason: 'no usable publishable key' };
  else if (!originAllowed(last(request, 'origin'), world)) passed = { statuses: [403], reason: "Origin missing or not on the key's list" };
  else if (jsonText(request.body) === undefined) passed = { statuses: [400], reason: 'body is not JSON' };
  // The key's limit is counted once the body says what the request carries: a throttled key's request with a valid body is 429, an invalid one 422.
  // A session spends none of the key's limit (docs/ingest-api.md): the throttled key's session is answered as any other.
  else if (sessions) passed = { statuses: [202, 422], reason: 'a session' };
  else if (key.verdict === 'throttled') passed = { statuses: [422, 429], reason: "key over its limit (after the body's content)" };
  else passed = route[1] === 'events' ? { statuses: [202, 422], reason: 'events' } : { statuses: [200, 201, 422], reason: 'a feature request' };
  return key.sure ? passed : { ...passed, statuses: [401, ...passed.statuses], reason: `${passed.reason}, or 401 (odd separator)` };
}

/** The checks of an ingest answer beyond its status: CORS, headers, the shape of a 2xx body. */
export function ingestHeaderProblems(request: FuzzRequest, status: number, headers: Record<string, string>, path: string): string[] {
  const problems: string[] = [];
  const origin = last(request, 'origin');
  const echo = headers['access-control-allow-origin'];
  const wanted = origin !== undefined && ECHOABLE.test(origin) ? origin : undefined;
  if (echo !== wanted) problems.push(`Access-Control-Allow-Origin ${echo}, expected ${wanted}`);
  if (echo === '*') problems.push('Access-Control-Allow-Origin: * on an ingest answer');
  if (headers['access-control-allow-credentials'] !== undefined) problems.push('Access-Control-Allow-Credentials sent');
  if (!/(^|,\s*)Origin(\s*,|$)/i.test(headers.vary ?? '')) problems.push(`Vary ${headers.vary}, expected Origin`);
  if (wanted !== undefined && request.method !== 'OPTIONS' && headers['access-control-expose-headers'] !== 'Retry-After, X-Request-Id') {
    problems.push(`Access-Control-Expose-Headers ${headers['access-control-expose-headers']}`);
  }
  if (status === 204) {
    if (headers['access-control-allow-methods'] !== 'POST') problems.push('preflight without Allow-Methods POST');
    if (headers['access-control-allow-headers'] !== 'authorization, content-type') problems.push('preflight Allow-Headers');
    if (headers['access-control-max-age'] !== '7200') problems.push('preflight Max-Age');
  }
  if (status === 401 && headers['www-authenticate'] !== 'Bearer realm="ingest"') problems.push(`401 with WWW-Authenticate ${headers['www-authenticate']}`);
  if (status === 405 && headers.allow !== 'OPTIONS, POST') problems.push(`405 with Allow ${headers.allow}`);
  if (status === 429 && !(/^\d+$/.test(headers['retry-after'] ?? '') && Number(headers['retry-after']) >= 1))
    problems.push(`429 with Retry-After ${headers['retry-after']}`);
  void path;
  return problems;
}

/** What a 2xx ingest body must hold. */
export function ingestSuccessProblems(status: number, json: Record<string, unknown>): string[] {
  if (status === 202) {
    const { accepted, duplicates, rejected } = json as { accepted: unknown; duplicates: unknown; rejected: unknown };
    if (Object.keys(json).sort().join() !== 'accepted,duplicates,rejected') return [`202 body has keys ${Object.keys(json).join(', ')}`];
    if (!Number.isInteger(accepted) || !Number.isInteger(duplicates) || !Array.isArray(rejected)) return ['202 body of the wrong types'];
    if ((accepted as number) + (duplicates as number) < 1) return ['202 with no event stored or found'];
    return [];
  }
  if (Object.keys(json).sort().join() !== 'created,featureRequest') return [`${status} body has keys ${Object.keys(json).join(', ')}`];
  if (json.created !== (status === 201)) return [`created is ${String(json.created)} on a ${status}`];
  const fr = json.featureRequest as Record<string, unknown>;
  if (!/^fr_[0-9a-f]{16}$/.test(String(fr?.id)) || typeof fr?.title !== 'string') return ['malformed featureRequest'];
  return [];
}
