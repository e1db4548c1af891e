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
    description:
      "The request's id (API Gateway's request id; the same value is in the request's log line): quote it when asking about a request.",
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
  Allow: {
    description: 'The methods the path accepts.',
    schema: { type: 'string', pattern: '^[A-Z]+(, [A-Z]+)*$' },
  },
  'WWW-Authenticate': {
    description: 'The scheme the API expects: a bearer secret key.',
    schema: { type: 'string', const: 'Bearer realm="contacts"' },
  },
} as const satisfies Record<string, HeaderDoc>;

export type HeaderName = keyof typeof HEADERS;

/** Headers on every answer of the handler, errors included (README: API reference). */
export const EVERY_ANSWER_HEADERS: readonly HeaderName[] = ['X-Request-Id', 'Cache-Control', 'X-Content-Type-Options'];

export interface ErrorResponseDoc {
  description: string;
  /** Headers besides EVERY_ANSWER_HEADERS, all required. */
  headers?: HeaderName[];
}

/** Error answers of the pipeline, by name (components.responses); each body is `{"error": string}`. */
export const ERROR_RESPONSES = {
  BadRequest: {
    description:
      'The body is not valid JSON, not UTF-8, or empty; or a read by email lacks the `email` parameter (or repeats it).',
  },
  Unauthorized: {
    description:
      'Missing, unknown, malformed or revoked key; a publishable `dfpk_` key; `Authorization` not `Bearer` or sent twice; a key only in a query parameter.',
    headers: ['WWW-Authenticate'],
  },
  Forbidden: { description: 'The request carried an `Origin` header: this API is for servers only and sends no CORS headers.' },
  ContactNotFound: { description: "No such contact in the caller's factory (another factory's contact included)." },
  NoSuchEndpoint: { description: 'No endpoint has this path.' },
  MethodNotAllowed: { description: 'The path does not accept this method.', headers: ['Allow'] },
  PayloadTooLarge: { description: 'The body is larger than 512 KiB (524,288 bytes).' },
  UnprocessableContent: {
    description:
      'Valid JSON, invalid content: a missing `email` or one outside the address rules, a `source` other than the four values (`""` included), free text that is not well-formed Unicode (a lone surrogate), a field of the wrong type, a `companyDomain` that is not a domain, a body that is not an object. Every problem is listed, separated by `; `. Nothing is stored.',
  },
  RateLimited: {
    description:
      "Over the key's per-minute limit: wait `Retry-After` seconds and send the same request again. Every authenticated request counts.",
    headers: ['Retry-After'],
  },
  StorageUnavailable: {
    description:
      'The store could not complete the call in time. Retrying the same request is safe and cannot create a duplicate.',
    headers: ['Retry-After'],
  },
} as const satisfies Record<string, ErrorResponseDoc>;

export type ErrorResponseName = keyof typeof ERROR_RESPONSES;

export interface GatewayResponseDoc {
  description: string;
  /** Headers it may carry (never required: the local adapter and API Gateway differ). */
  headers?: HeaderName[];
}

/**
 * Answers the HTTP layer in front of the handler may give to any request
 * (API Gateway on AWS, local/http-adapter.ts on one machine): still
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
