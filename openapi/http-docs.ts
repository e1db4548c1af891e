/**
 * What the OpenAPI document says about HTTP itself, shared by every API of
 * the route table: the headers answers carry, the error answers the
 * pipeline gives, and the answers the HTTP layer in front of the handler may
 * give. The routes' own descriptions are in api-docs.ts.
 */

/** A JSON Schema, as the document holds it. */
export type JsonSchema = Record<string, unknown>;

export interface HeaderDoc {
  description: string;
  schema: JsonSchema;
}

/** Response headers, by the name the answers use. */
export const HEADERS = {
  'X-Request-Id': {
    description: "The request's id (API Gateway's request id; the same value is in the request's log line): quote it when asking about a request.",
    schema: { type: 'string', minLength: 1 },
  },
  'Cache-Control': {
    description: 'Tenant data is never cached.',
    schema: { type: 'string', const: 'no-store' },
  },
  'X-Content-Type-Options': {
    description: 'No content sniffing.',
    schema: { type: 'string', const: 'nosniff' },
  },
  'Retry-After': {
    description: 'Whole seconds to wait before sending the same request again.',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-Sentry-Rate-Limits': {
    description: "The Sentry protocol's 429: `<seconds>::key`, every category of this key held back that long (what the Sentry SDKs read).",
    schema: { type: 'string', pattern: '^[0-9]+::key$' },
  },
  Allow: {
    description: 'The methods the path accepts.',
    schema: { type: 'string', pattern: '^[A-Z]+(, [A-Z]+)*$' },
  },
  'WWW-Authenticate': {
    description: 'The scheme the API expects: a bearer key, secret (`realm="contacts"`) or publishable (`realm="ingest"`).',
    schema: { type: 'string', enum: ['Bearer realm="contacts"', 'Bearer realm="ingest"'] },
  },
  Vary: {
    description: "The ingest API's answers depend on the `Origin` header (CORS).",
    schema: { type: 'string', const: 'Origin' },
  },
  'Access-Control-Allow-Origin': {
    description:
      "The ingest API only, when the request carried an `Origin` that is a serialized origin (or `null`): that very value, never `*`. Answers with data only ever go to the key's own websites; errors say only what to fix, so any page may read them.",
    schema: { type: 'string', minLength: 1, not: { const: '*' } },
  },
  'Access-Control-Expose-Headers': {
    description: "The ingest API only, with `Access-Control-Allow-Origin` on a POST's answer: the page may read these.",
    schema: { type: 'string', const: 'Retry-After, X-Request-Id' },
  },
  'Access-Control-Allow-Methods': { description: 'The preflight: the method the ingest API takes.', schema: { type: 'string', const: 'POST' } },
  'Access-Control-Allow-Headers': {
    description: 'The preflight: the request headers a page may send.',
    schema: { type: 'string', const: 'authorization, content-type' },
  },
  'Access-Control-Max-Age': { description: 'The preflight: seconds a browser may cache it.', schema: { type: 'integer', const: 7200 } },
  'RateLimit-Policy': {
    description:
      'The contacts API, on every answer after the key check (IETF draft-ietf-httpapi-ratelimit-headers-11): the key\'s quota `q` requests per window `w` = 60 seconds, policy `"per-key"`.',
    schema: { type: 'string', pattern: '^"per-key";q=[0-9]+;w=60$' },
  },
  RateLimit: {
    description:
      'The contacts API, on every answer after the key check: `r` requests would be admitted right now, back to back; `t` whole seconds until one more than `r` would be (on a 429, `t` equals `Retry-After`). A client that keeps `r` above 0 is never refused.',
    schema: { type: 'string', pattern: '^"per-key";r=[0-9]+;t=[0-9]+$' },
  },
} as const satisfies Record<string, HeaderDoc>;

export type HeaderName = keyof typeof HEADERS;

/** Headers on every answer of the handler, errors included (docs/contacts-api.md#base-url-and-common-headers). */
export const EVERY_ANSWER_HEADERS: readonly HeaderName[] = ['X-Request-Id', 'Cache-Control', 'X-Content-Type-Options'];

export interface ErrorResponseDoc {
  description: string;
  /** Headers besides EVERY_ANSWER_HEADERS, all required. */
  headers?: HeaderName[];
  /** Headers it carries only sometimes (the ingest API's CORS headers: with an `Origin` only). */
  optionalHeaders?: HeaderName[];
}

/** Where the key stands against its limit: on every contacts API answer after the key check decided. */
export const RATE_LIMIT_HEADERS: HeaderName[] = ['RateLimit-Policy', 'RateLimit'];

/** The ingest API's CORS headers on an answer to a POST: present when the request carried an echoable `Origin`. */
export const INGEST_CORS_HEADERS: HeaderName[] = ['Access-Control-Allow-Origin', 'Access-Control-Expose-Headers'];

/** An ingest error answer: `Vary: Origin` always, the CORS headers with an `Origin`. */
const ingest = (description: string, headers: HeaderName[] = []) => ({
  description,
  headers: ['Vary', ...headers] as HeaderName[],
  optionalHeaders: INGEST_CORS_HEADERS,
});

/** Error answers of the pipeline, by name (components.responses); each body is `{"error": string}`. */
export const ERROR_RESPONSES = {
  BadRequest: {
    description: 'The body is not valid JSON, not UTF-8, or empty; or a read by email lacks the `email` parameter (or repeats it).',
    headers: RATE_LIMIT_HEADERS,
  },
  Unauthorized: {
    description:
      'Missing, unknown, malformed or revoked key; a publishable `dfpk_` key; `Authorization` not `Bearer` or sent twice; a key only in a query parameter.',
    headers: ['WWW-Authenticate'],
  },
  Forbidden: { description: 'The request carried an `Origin` header: this API is for servers only and sends no CORS headers.' },
  ContactNotFound: { description: "No such contact in the caller's factory (another factory's contact included).", headers: RATE_LIMIT_HEADERS },
  NoSuchEndpoint: { description: 'No endpoint has this path.', headers: RATE_LIMIT_HEADERS },
  MethodNotAllowed: { description: 'The path does not accept this method.', headers: ['Allow', ...RATE_LIMIT_HEADERS] },
  PayloadTooLarge: { description: 'The body is larger than 512 KiB (524,288 bytes).', headers: RATE_LIMIT_HEADERS },
  UnprocessableContent: {
    description:
      'Valid JSON, invalid content: a missing `email` or one outside the address rules, a `source` other than the four values (`""` included), free text that is not well-formed Unicode (a lone surrogate), a field of the wrong type, a `companyDomain` that is not a domain, a body that is not an object. Every problem is listed, separated by `; `. Nothing is stored.',
    headers: RATE_LIMIT_HEADERS,
  },
  RateLimited: {
    description:
      "Over the key's per-minute limit: wait `Retry-After` seconds and send the same request again. Every authenticated request counts. `RateLimit` says `r=0` and `t` equal to `Retry-After`. Also, without the rate-limit fields when the key check itself was refused, when the store refused a write for load (one partition past its write ceiling: docs/capacity.md): nothing of the request was written, and sending it again is safe.",
    headers: ['Retry-After'],
    optionalHeaders: RATE_LIMIT_HEADERS,
  },
  StorageUnavailable: {
    description:
      'The store could not complete the call in time. Retrying the same request is safe and cannot create a duplicate. The rate-limit fields are there when the key check had passed (a 503 of the operation), not when the key check itself failed.',
    headers: ['Retry-After'],
    optionalHeaders: RATE_LIMIT_HEADERS,
  },
  IngestBadRequest: ingest('The body is not valid JSON, not UTF-8, or empty.'),
  IngestUnauthorized: ingest(
    'No key, or a key that is unknown, revoked or malformed; a secret `dfsk_` key (the same answer as an unknown key, and the key is marked exposed); `Authorization` not `Bearer`; a key in the header and another in `?key=`; the header or `key` sent twice.',
    ['WWW-Authenticate'],
  ),
  OriginRefused: ingest('No `Origin` header, or an origin the key is not bound to (the message names it). Readable by that page through CORS.'),
  IngestNoSuchEndpoint: ingest('No endpoint of the ingest API has this path.'),
  IngestMethodNotAllowed: ingest('The path takes POST (and OPTIONS, the preflight).', ['Allow']),
  IngestPayloadTooLarge: ingest("The body is larger than 64 KiB (65,536 bytes), the browser's keepalive budget."),
  UnsupportedMediaType: ingest('`Content-Type` is not `application/json` or `text/plain` (a charset must be UTF-8), or is missing.'),
  InvalidReport: ingest(
    "Valid JSON, invalid content: `events` missing, not an array, empty or over 20; no valid event (each problem listed by index); a feature request's field (a `title` under 3 characters, a `requestId` that is not a UUID, a field of the wrong type). Nothing is stored.",
  ),
  IngestRateLimited: ingest(
    "Over the key's per-minute limit, an error's share of it (each issue at most half of the key's requests), or the per-address limits (60 requests a minute, 10 feature requests an hour, per key and client address); or the store refused for load (docs/capacity.md). Wait `Retry-After` seconds and send the same request again: events already stored by it count as duplicates.",
    ['Retry-After'],
  ),
  SentryRateLimited: ingest("As IngestRateLimited, for the Sentry protocol's routes: `X-Sentry-Rate-Limits` says the same wait in Sentry's form.", [
    'Retry-After',
    'X-Sentry-Rate-Limits',
  ]),
  ReportStoreUnavailable: ingest('The store could not complete the call in time. Retrying the same request is safe: each report is stored once.', [
    'Retry-After',
  ]),
} as const satisfies Record<string, ErrorResponseDoc>;

export type ErrorResponseName = keyof typeof ERROR_RESPONSES;

export interface GatewayResponseDoc {
  description: string;
  /** Headers it may carry (never required: the local adapter and API Gateway differ). */
  headers?: HeaderName[];
}

/**
 * Answers the HTTP layer in front of the handler may give to any request
 * (API Gateway on AWS, local/harness/http-adapter.ts on one machine): still
 * `{"error": string}`, and never with an `X-Request-Id` of ours, which is how
 * a client (and the tests' validator) tells them from the handler's.
 */
export const GATEWAY_RESPONSES = {
  400: { description: 'The request is not valid HTTP.' },
  413: { description: 'The body is larger than 10 MB: refused before the handler.' },
  429: { description: "The stage's throttling (account protection, across all keys).", headers: ['Retry-After'] },
  431: { description: 'The request headers are too large.' },
  502: { description: 'The function failed.' },
  504: { description: 'The function timed out: sending the same request again is safe.', headers: ['Retry-After'] },
} as const satisfies Record<number, GatewayResponseDoc>;
