import { isUtf8 } from 'node:buffer';
/**
 * What docs/contacts-api.md (endpoints, errors, precedence, limits) says the
 * answer to a request must be, and the checks of an actual answer against
 * it. Derived from the documents, not from the code: the rules are restated
 * here, in the order of docs/contacts-api.md#precedence.
 */
import { createHash } from 'node:crypto';
import type { Expectation } from './expectation';
import { ingestExpectation, ingestHeaderProblems, ingestSuccessProblems } from './ingest-oracle';
import { headerValues, type FuzzRequest } from './request';
import type { FuzzWorld } from './world';
import { worldSecrets } from './world';

/** docs/contacts-api.md#limits: request body 512 KiB. */
const BODY_LIMIT = 512 * 1024;
const COLLECTION = /^\/api\/v1\/contacts\/?$/;
const ITEM = /^\/api\/v1\/contacts\/([^/]+)\/?$/;
const ALLOW = { collection: 'GET, POST', item: 'GET' } as const;
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,3})?Z$/;
const KEY_TOKEN = /df[sp]k_[A-Za-z0-9_-]{16,}/g;

/** The contact id of docs/contacts-api.md#the-contact: `ct_` + first 16 hex of sha256("<factoryId>:<stored email>"), the stored form as returned. */
export function contactIdOf(factoryId: string, storedEmail: string): string {
  return `ct_${createHash('sha256').update(`${factoryId}:${storedEmail}`, 'utf8').digest('hex').slice(0, 16)}`;
}

/**
 * docs/contacts-api.md#email-addresses: an address is one contact with a stored form when
 * it differs from it only in letter case: the same characters, except that
 * some are the one capital of the stored letter (a capital whose lowercase is
 * that single letter and back), and lowercasing the whole address gives the
 * stored form (a final Σ, which lowercases to ς, is refused).
 */
export function namesStoredEmail(address: string, stored: string): boolean {
  const sent = [...address];
  const kept = [...stored];
  if (sent.length !== kept.length || address.toLowerCase() !== stored) return false;
  return sent.every((char, i) => {
    const lower = kept[i] as string;
    return char === lower || (char.toLowerCase() === lower && lower.toUpperCase() === char);
  });
}

/**
 * docs/contacts-api.md#free-text: stored well-formed, without C0/C1 controls or bidi
 * embedding/override/isolate controls; contact fields are single-line (no
 * TAB, CR, LF, U+2028, U+2029) and trimmed.
 */
const NOT_STORED_IN_TEXT = /[\p{Cs}\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/u;
const TEXT_FIELDS = ['name', 'title', 'phone', 'page'] as const;

/** The company id of docs/contacts-api.md#the-contact: `co_` + first 16 hex of sha256("<factoryId>:<normalized domain>"). */
export function companyIdOf(factoryId: string, domain: string): string {
  return `co_${createHash('sha256').update(`${factoryId}:${domain}`, 'utf8').digest('hex').slice(0, 16)}`;
}

const decode = (text: string): string | undefined => {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
};

/** Path and query of the target; an absolute-form target (`http://host/path`) names its path (RFC 9112 3.2.2). */
export function splitTarget(target: string): { path: string; query: string } {
  let rest = target;
  if (/^https?:\/\//i.test(rest) && URL.canParse(rest)) {
    const url = new URL(rest);
    rest = `${url.pathname}${url.search}`;
  }
  const q = rest.indexOf('?');
  return q === -1 ? { path: rest, query: '' } : { path: rest.slice(0, q), query: rest.slice(q + 1) };
}

type KeyOutcome = 'ok' | 'throttled' | 'refused';

/**
 * docs/contacts-api.md#errors, 401: one Authorization field, `Bearer <key>`. The scheme is
 * case-insensitive and followed by spaces (RFC 7235, 6750). A separator other
 * than spaces (a tab, a no-break space) is not in those RFCs and not in the
 * docs/contacts-api.md#errors: either answer is accepted for it.
 */
function keyOutcome(request: FuzzRequest, world: FuzzWorld): { outcome: KeyOutcome; sure: boolean } {
  const values = headerValues(request, 'authorization');
  if (values.length !== 1) return { outcome: 'refused', sure: true };
  const value = values[0] as string;
  const of = (key: string | undefined): KeyOutcome => (key === world.own.key ? 'ok' : key === world.throttledKey ? 'throttled' : 'refused');
  const strict = /^[ \t]*bearer +(\S+)[ \t]*$/i.exec(value)?.[1];
  if (strict !== undefined) return { outcome: of(strict), sure: true };
  const loose = of(/^\s*bearer\s+(\S+)\s*$/i.exec(value)?.[1]);
  return loose === 'refused' ? { outcome: 'refused', sure: true } : { outcome: loose, sure: false };
}

function upsert(request: FuzzRequest): Expectation {
  if (request.body.length > BODY_LIMIT) return { statuses: [413], reason: 'body over 512 KiB' };
  // docs/contacts-api.md#upsert-a-contact--post-apiv1contacts: bytes that are not UTF-8 are refused, never read as U+FFFD (the
  // local adapter, and so this suite, hands such a body to the function as bytes).
  if (!isUtf8(request.body)) return { statuses: [400], reason: 'body is not UTF-8' };
  const bom = request.body[0] === 0xef && request.body[1] === 0xbb && request.body[2] === 0xbf;
  const text = (bom ? request.body.subarray(3) : request.body).toString('utf8');
  if (text.trim() === '') return { statuses: [400], reason: 'empty body' };
  try {
    JSON.parse(text);
  } catch {
    return { statuses: [400], reason: 'body is not JSON' };
  }
  const intent = request.intent;
  if (intent && intent.text === text) {
    return intent.verdict === 'valid' ? { statuses: [200, 201], reason: 'a valid upsert' } : { statuses: [422], reason: 'JSON with invalid content' };
  }
  return { statuses: [200, 201, 422], reason: 'JSON of unknown validity' };
}

function readById(segment: string, world: FuzzWorld): Expectation {
  const id = decode(segment);
  if (id !== undefined && world.own.contacts.some((c) => c.id === id)) {
    return { statuses: [200], reason: 'the caller’s contact', reads: { id } };
  }
  return { statuses: [404], reason: 'no such contact in the caller’s factory' };
}

function readByEmail(query: string, world: FuzzWorld): Expectation {
  const values = new URLSearchParams(query).getAll('email');
  if (values.length === 0) return { statuses: [400], reason: 'no email parameter' };
  if (values.length > 1) return { statuses: [400], reason: 'email parameter repeated' };
  const value = values[0] as string;
  if (value === '') return { statuses: [400], reason: 'empty email parameter' };
  // A lone unencoded `+` arrives as a space: "empty", or the address "+" (no such contact).
  if (value.trim() === '') return { statuses: [400, 404], reason: 'blank email parameter' };
  // Case-insensitive as docs/contacts-api.md#email-addresses defines it; a `+` sent unencoded arrives as a space and is read back as `+`.
  const address = value.trim().replace(/ /g, '+');
  const own = world.own.contacts.find((c) => namesStoredEmail(address, c.email));
  if (own) return { statuses: [200], reason: 'the caller’s contact', reads: { email: own.email } };
  if (world.other.contacts.some((c) => namesStoredEmail(address, c.email))) {
    return { statuses: [404], reason: 'another factory’s email (never written by the caller)' };
  }
  return { statuses: [200, 404], reason: 'an address the fuzz may have written' };
}

/** docs/contacts-api.md#precedence, steps 4 to 8, for a caller whose key passed. */
function afterKey(request: FuzzRequest, world: FuzzWorld): Expectation {
  const { path, query } = splitTarget(request.target);
  const item = ITEM.exec(path);
  const onCollection = COLLECTION.test(path);
  if (!onCollection && !item) return { statuses: [404], reason: 'no such endpoint' };
  const allowed = onCollection ? ['GET', 'POST'] : ['GET'];
  if (!allowed.includes(request.method)) return { statuses: [405], reason: `${request.method} not allowed` };
  if (request.method === 'POST') return upsert(request);
  return onCollection ? readByEmail(query, world) : readById((item as RegExpExecArray)[1] as string, world);
}

/** Paths under this prefix are the ingest API's (docs/architecture.md#choices-worth-knowing: npm start and API Gateway route them to its function). */
const INGEST_PREFIX = '/ingest/v1/';

export const isIngestPath = (target: string): boolean => splitTarget(target).path.startsWith(INGEST_PREFIX);

/** docs/contacts-api.md#precedence (or, under /ingest/v1/, docs/ingest-api.md#precedence): the first check that fails answers. */
export function expectation(request: FuzzRequest, world: FuzzWorld): Expectation {
  const { path, query } = splitTarget(request.target);
  if (path.startsWith(INGEST_PREFIX)) return ingestExpectation(request, path, query, world);
  if (headerValues(request, 'origin').length > 0) return { statuses: [403], reason: 'Origin header' };
  const key = keyOutcome(request, world);
  if (key.outcome === 'refused') return { statuses: [401], reason: 'no usable key' };
  const passed = key.outcome === 'throttled' ? { statuses: [429], reason: 'key over its limit' } : afterKey(request, world);
  return key.sure ? passed : { ...passed, statuses: [401, ...passed.statuses], reason: `${passed.reason}, or 401 (odd separator)` };
}

/** Key-shaped tokens anywhere in the request, and every secret of the world: no error may repeat one. */
function secretsOf(request: FuzzRequest, world: FuzzWorld): Set<string> {
  const texts = [request.target, decode(request.target) ?? '', ...request.headers.map(([, v]) => v), request.body.toString('utf8')];
  const tokens = new Set(worldSecrets(world));
  for (const text of texts) for (const token of text.match(KEY_TOKEN) ?? []) tokens.add(token);
  return tokens;
}

function checkContact(contact: Record<string, unknown>, world: FuzzWorld, problems: string[]) {
  if (contact.factoryId !== world.own.factoryId) problems.push(`contact of factory ${String(contact.factoryId)}, not the caller's`);
  if (typeof contact.email !== 'string' || contact.id !== contactIdOf(world.own.factoryId, contact.email)) {
    problems.push(`contact id ${String(contact.id)} is not derived from the caller's factory and its email`);
  }
  if ('enriched' in contact || 'enrichment' in contact) problems.push('enrichment fields on a contact never enriched');
  if (contact.companyId !== undefined && !/^co_[0-9a-f]{16}$/.test(String(contact.companyId))) problems.push('malformed companyId');
  for (const field of ['createdAt', 'updatedAt']) {
    if (!ISO_UTC.test(String(contact[field]))) problems.push(`${field} is not an ISO 8601 UTC time`);
  }
  for (const [field, value] of Object.entries(contact)) if (value === null) problems.push(`${field} is null (must be absent)`);
  for (const field of TEXT_FIELDS) {
    const value = contact[field];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value === '' || value !== value.trim() || NOT_STORED_IN_TEXT.test(value)) {
      problems.push(`${field} stored as ${JSON.stringify(value)}: not cleaned by the free-text rule`);
    }
  }
}

function checkSuccess(request: FuzzRequest, json: Record<string, unknown>, status: number, expected: Expectation, world: FuzzWorld, problems: string[]) {
  const contact = json.contact;
  if (typeof contact !== 'object' || contact === null || Array.isArray(contact)) {
    problems.push('no contact object in a 2xx answer');
    return;
  }
  const c = contact as Record<string, unknown>;
  checkContact(c, world, problems);
  if (request.method === 'POST') {
    if (Object.keys(json).sort().join() !== 'contact,created') problems.push(`2xx body has keys ${Object.keys(json).join(', ')}`);
    if (json.created !== (status === 201)) problems.push(`created is ${String(json.created)} on a ${status}`);
    const intent = request.intent;
    if (intent?.verdict === 'valid' && intent.email !== undefined && expected.reason === 'a valid upsert') {
      if (c.email !== intent.email) problems.push(`email stored as ${JSON.stringify(c.email)}, expected ${JSON.stringify(intent.email)}`);
      for (const field of ['companyId', 'createdAt', 'updatedAt'] as const) {
        const sent = intent.forbidden?.[field];
        if (sent !== undefined && JSON.stringify(c[field]) === JSON.stringify(sent)) problems.push(`mass assignment: ${field} taken from the body`);
      }
    }
  } else {
    if (Object.keys(json).join() !== 'contact') problems.push(`2xx body has keys ${Object.keys(json).join(', ')}`);
    const reads = expected.reads;
    if (reads && 'id' in reads && c.id !== reads.id) problems.push(`read ${String(c.id)} for id ${reads.id}`);
    if (reads && 'email' in reads && c.email !== reads.email) problems.push(`read ${String(c.email)} for email ${reads.email}`);
  }
}

/** Every problem with an answer of the handler (through the HTTP adapter or not); empty when it is right. */
export function judgeAnswer(
  request: FuzzRequest,
  response: { status: number; headers: Record<string, string>; body: string },
  world: FuzzWorld,
  options: { bodyless?: boolean } = {},
): string[] {
  const problems: string[] = [];
  const expected = expectation(request, world);
  const { status, headers } = response;
  const ingest = isIngestPath(request.target);
  if (!expected.statuses.includes(status)) problems.push(`status ${status}, expected ${expected.statuses.join(' or ')} (${expected.reason})`);
  if (status >= 500) problems.push(`a ${status}`);
  if (ingest) problems.push(...ingestHeaderProblems(request, status, headers, splitTarget(request.target).path));
  else for (const name of Object.keys(headers)) if (name.startsWith('access-control-')) problems.push(`CORS header ${name}`);
  if (!headers['x-request-id']) problems.push('no X-Request-Id');
  if (headers['cache-control'] !== 'no-store') problems.push(`Cache-Control ${headers['cache-control']}`);
  if (headers['x-content-type-options'] !== 'nosniff') problems.push('no X-Content-Type-Options: nosniff');
  if (status === 204) {
    if (response.body !== '') problems.push('a 204 with a body');
    return problems;
  }
  if (!headers['content-type']?.startsWith('application/json')) problems.push(`Content-Type ${headers['content-type']}`);
  if (!ingest && status === 401 && headers['www-authenticate'] !== 'Bearer realm="contacts"')
    problems.push(`401 with WWW-Authenticate ${headers['www-authenticate']}`);
  if (!ingest && status === 405) {
    const allow = COLLECTION.test(splitTarget(request.target).path) ? ALLOW.collection : ALLOW.item;
    if (headers.allow !== allow) problems.push(`405 with Allow ${headers.allow}, expected ${allow}`);
  }
  if (status === 429 && !(/^\d+$/.test(headers['retry-after'] ?? '') && Number(headers['retry-after']) >= 1 && Number(headers['retry-after']) <= 60)) {
    problems.push(`429 with Retry-After ${headers['retry-after']}`);
  }
  if (status === 503 && headers['retry-after'] !== '1') problems.push(`503 with Retry-After ${headers['retry-after']}`);
  if (options.bodyless) return problems;

  let json: unknown;
  try {
    json = JSON.parse(response.body);
  } catch {
    problems.push(`body is not JSON: ${JSON.stringify(response.body.slice(0, 200))}`);
    return problems;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    problems.push('body is not a JSON object');
    return problems;
  }
  const object = json as Record<string, unknown>;
  if (status >= 400) {
    if (Object.keys(object).join() !== 'error' || typeof object.error !== 'string' || object.error === '') {
      problems.push(`error body is not {"error": "<message>"}: ${response.body.slice(0, 200)}`);
    }
    for (const secret of secretsOf(request, world)) {
      if (response.body.includes(secret)) problems.push(`error body repeats a key (${secret.slice(0, 9)}…)`);
    }
  } else if (status < 300) {
    if (ingest) problems.push(...ingestSuccessProblems(status, object));
    else checkSuccess(request, object, status, expected, world, problems);
  }
  return problems;
}

const PLAIN_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE']);
const PLAIN_TARGET = /^(?:https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?)?\/[A-Za-z0-9\-._~!$&'()*+,;=:@/?%]*$/i;
const PLAIN_VALUE = /^[\t\x20-\x7e]*$/;

/** Bytes any HTTP/1.1 server must accept: standard method, ASCII target and values, headers well under 16 KiB. */
export function isPlainHttp(request: FuzzRequest): boolean {
  const headerBytes = request.headers.reduce((sum, [name, value]) => sum + name.length + value.length + 4, request.target.length);
  return (
    PLAIN_METHODS.has(request.method) &&
    PLAIN_TARGET.test(request.target) &&
    request.headers.every(([, value]) => PLAIN_VALUE.test(value)) &&
    headerBytes < 12_000
  );
}

/**
 * Problems with an answer the HTTP adapter gave without calling the handler
 * (no X-Request-Id): a request HTTP/1.1 itself refuses (malformed, headers too
 * large), in the API's error shape. A plain request must never end there.
 */
export function judgeRefusal(request: FuzzRequest, response: { status: number; headers: Record<string, string>; body: string }): string[] {
  const problems: string[] = [];
  if (isPlainHttp(request)) problems.push(`a plain HTTP request refused by the HTTP layer with ${response.status}`);
  if (response.status !== 400 && response.status !== 431) problems.push(`HTTP-layer refusal with status ${response.status}`);
  if (!response.headers['content-type']?.startsWith('application/json')) problems.push('HTTP-layer refusal is not JSON');
  try {
    const json = JSON.parse(response.body) as unknown;
    if (typeof json !== 'object' || json === null || Object.keys(json).join() !== 'error') problems.push('HTTP-layer refusal is not {"error"}');
  } catch {
    problems.push(`HTTP-layer refusal body is not JSON: ${JSON.stringify(response.body.slice(0, 100))}`);
  }
  for (const name of Object.keys(response.headers)) if (name.startsWith('access-control-')) problems.push(`CORS header ${name}`);
  return problems;
}
