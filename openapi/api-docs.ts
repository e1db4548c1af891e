import { CONTACT_ID_PATTERN } from '../lambda/kernel/contact-id-digest';
import { EMAIL_MAX_CHARS, TEXT_LIMITS } from '../lambda/kernel/limits';
import type { Method } from '../lambda/infrastructure/http/router';
import { FEATURE_REQUEST_TEXT, INGEST_BODY_LIMIT_BYTES, MAX_EVENTS_PER_REQUEST, SENTRY_LIMITS } from '../lambda/ingest/limits';
import { SESSION_BODY_LIMIT_BYTES } from '../lambda/ingest/sessions/own-session';
import type { API_TABLE } from './api-table';
import { INGEST_CORS_HEADERS, RATE_LIMIT_HEADERS, type ErrorResponseName, type HeaderName, type JsonSchema } from './http-docs';

/** A route of the table, as `API_TABLE` names it: `POST /api/v1/contacts`. */
export type RouteKey = `${Method} ${string}`;

/** The schemas answers are made of (components.schemas, from the zod schemas: document.ts). */
export type AnswerSchemaName = 'ContactAnswer' | 'UpsertContactAnswer' | 'EventsReceipt' | 'FeatureRequestAnswer' | 'SentryAnswer' | 'SessionReceipt';

/** The schemas a request field may stand for as a whole (components.schemas, shared with the answers). */
export type SharedSchemaName = 'Source';

/** A success answer of one route. */
export interface SuccessDoc {
  description: string;
  /** The body's schema; none for an answer without a body (the ingest API's preflight, 204). */
  schema?: AnswerSchemaName;
  /** Headers besides the ones every answer carries. */
  headers?: HeaderName[];
  /** Headers it carries only sometimes (the ingest API's CORS headers: with an `Origin` only). */
  optionalHeaders?: HeaderName[];
}

export interface ParameterDoc {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description: string;
  schema: JsonSchema;
}

/** What one field of a request body means; its type comes from the route's zod schema. */
export interface FieldDoc {
  description: string;
  /** Added to the schema zod gives (a constraint the validation enforces in code, not in the schema's shape). */
  schema?: JsonSchema;
  /**
   * The field is this shared schema (or null, which counts as omitted): it
   * refers to it instead of restating it, so a generated client has one type
   * for the request's value and the answer's.
   */
  nullableRef?: SharedSchemaName;
}

export interface RouteDoc {
  operationId: string;
  /** False for an operation that needs no key (the ingest API's preflight). */
  secured?: false;
  summary: string;
  description: string;
  parameters?: ParameterDoc[];
  /** The body's component name and fields; its schema is the route's body schema (lambda/contacts/api/routes.ts, lambda/ingest/api/routes.ts). */
  requestBody?: {
    schemaName: string;
    description: string;
    fields: Record<string, FieldDoc>;
    /** The media types the body is documented under; JSON when not said. */
    contentTypes?: readonly string[];
  };
  /** Status → the success answer, or a shared error answer (http-docs.ts). The API's guards' answers are added. */
  responses: Record<number, SuccessDoc | ErrorResponseName>;
}

export interface ApiDoc {
  tag: { name: string; description: string };
  /** The security scheme every route of the API needs. */
  security: { name: string; scheme: JsonSchema };
  /** Answers the API's guards (lambda/contacts/api/routes.ts, lambda/ingest/api/routes.ts) may give to every request, whatever its route. */
  guardResponses: Record<number, ErrorResponseName>;
  /** Answers to a request no route matches (another path, or another method on a route's path), besides the guards'. */
  unmatchedResponses: Record<number, ErrorResponseName>;
  /** True when this API also answers paths outside its prefix that no other API claims. */
  otherPaths: boolean;
  /** Every route of the API, by its key; a test holds this to the route table. */
  routes: Record<RouteKey, RouteDoc>;
}

const freeText = (field: keyof typeof TEXT_LIMITS, what: string): FieldDoc => ({
  description: `${what} Free text (docs/contacts-api.md#free-text): invisible controls removed, line breaks made spaces, trimmed, clipped to ${TEXT_LIMITS[field].toLocaleString('en-US')} characters, never refused for length (a lone surrogate is 422). \`null\` or blank counts as omitted: an omitted field keeps its stored value.`,
});

/** The contacts API (docs/contacts-api.md): lambda/contacts/api/routes.ts, CONTACTS_API. */
const CONTACTS_DOC: ApiDoc = {
  tag: {
    name: 'contacts',
    description: "Server-to-server: push people into a factory's CRM (upsert by email) and read them back (by id or by email).",
  },
  security: {
    name: 'secretKey',
    scheme: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'dfsk_…',
      description:
        "A secret key (`dfsk_…`) in `Authorization: Bearer <key>`. The factory is the key's. Keys belong on servers: a publishable `dfpk_` key is refused like an unknown one.",
    },
  },
  guardResponses: { 401: 'Unauthorized', 403: 'Forbidden', 429: 'RateLimited', 503: 'StorageUnavailable' },
  unmatchedResponses: { 404: 'NoSuchEndpoint', 405: 'MethodNotAllowed' },
  // Its stack routes every path of its host to it (API Gateway's ANY /{proxy+}), and so does npm start.
  otherPaths: true,
  routes: {
    'POST /api/v1/contacts': {
      operationId: 'upsertContact',
      summary: 'Upsert a contact by email',
      description:
        'Creates the contact (201, `created: true`) or updates the one with this email (200, `created: false`). A field the body omits keeps its stored value; `createdAt` is set once; a company link, once set, is never changed. Retrying the same request is always safe: the same email always maps to the same record, so no idempotency key is needed.',
      requestBody: {
        schemaName: 'UpsertContactRequest',
        description: 'The contact to write. Unknown fields are ignored.',
        fields: {
          email: {
            description: `Required. The identity (docs/contacts-api.md#email-addresses): at most ${EMAIL_MAX_CHARS} characters, exactly one \`@\`, a dot-atom name and a host name; trimmed and lowercased letter by letter (input in Unicode NFC), so addresses differing only in case are one contact. Refused (422), never truncated.`,
            schema: { maxLength: EMAIL_MAX_CHARS },
          },
          name: freeText('name', 'Full name.'),
          company: freeText('company', 'The name of a company that `companyDomain` creates (the domain itself when absent).'),
          companyDomain: {
            description:
              "Finds the factory's company with this domain or creates it, and links the contact once. Normalized to a bare lowercase host (`https://www.Acme.io/` → `acme.io`); 422 when that is not a domain. `null` or blank counts as omitted.",
          },
          title: freeText('title', 'Job title.'),
          phone: freeText('phone', 'Phone number.'),
          page: freeText('page', 'The page or context the contact came from.'),
          source: {
            description:
              'Where the contact came from: `api` when a contact is created without it (or with `null`); an update without it keeps the stored one. Any other value, `""` included, is 422.',
            nullableRef: 'Source',
          },
        },
      },
      responses: {
        200: { description: 'The contact existed and was updated.', schema: 'UpsertContactAnswer', headers: RATE_LIMIT_HEADERS },
        201: { description: 'This call created the contact.', schema: 'UpsertContactAnswer', headers: RATE_LIMIT_HEADERS },
        400: 'BadRequest',
        413: 'PayloadTooLarge',
        422: 'UnprocessableContent',
      },
    },
    'GET /api/v1/contacts': {
      operationId: 'findContactByEmail',
      summary: 'Find a contact by email',
      description:
        'Derives the id the upsert writes from the address (case-insensitive) and reads that contact. URL-encode the address: a `+` sent unencoded arrives as a space and is read back as `+`.',
      parameters: [
        {
          name: 'email',
          in: 'query',
          required: true,
          description: 'The address, URL-encoded. Missing, empty or repeated: 400.',
          schema: { type: 'string' },
        },
      ],
      responses: {
        200: { description: 'The contact.', schema: 'ContactAnswer', headers: RATE_LIMIT_HEADERS },
        400: 'BadRequest',
        404: 'ContactNotFound',
      },
    },
    'GET /api/v1/contacts/{id}': {
      operationId: 'getContact',
      summary: 'Read a contact by id',
      description: "Reads one contact of the caller's factory. Another factory's contact is 404, never 403.",
      parameters: [
        {
          name: 'id',
          in: 'path',
          required: true,
          description: 'The contact id: `ct_` + 16 hex characters.',
          schema: { type: 'string', pattern: CONTACT_ID_PATTERN.source },
        },
      ],
      responses: {
        200: { description: 'The contact.', schema: 'ContactAnswer', headers: RATE_LIMIT_HEADERS },
        404: 'ContactNotFound',
      },
    },
  },
};

/** The ingest API's answers to a POST, besides each route's success. */
const INGEST_POST_ERRORS: Record<number, ErrorResponseName> = {
  400: 'IngestBadRequest',
  401: 'IngestUnauthorized',
  403: 'OriginRefused',
  413: 'IngestPayloadTooLarge',
  415: 'UnsupportedMediaType',
  422: 'InvalidReport',
  429: 'IngestRateLimited',
  503: 'ReportStoreUnavailable',
};

const PREFLIGHT: RouteDoc = {
  operationId: '',
  secured: false,
  summary: 'CORS preflight',
  description:
    'What a browser sends before a `fetch` with an `Authorization` header or a JSON content type. Answered for any origin, without a key: the `Origin` is echoed, POST and the headers `authorization, content-type` are allowed, for 7,200 s; never credentials.',
  responses: {
    204: {
      description: 'The preflight answer, no body.',
      headers: ['Vary', 'Access-Control-Allow-Methods', 'Access-Control-Allow-Headers', 'Access-Control-Max-Age'],
      optionalHeaders: ['Access-Control-Allow-Origin'],
    },
  },
};

const reportText = (what: string, max: number): FieldDoc => ({
  description: `${what} Free text: invisible controls and bidi overrides removed, trimmed, clipped to ${max.toLocaleString('en-US')} characters, never refused for length (a lone surrogate is 422). \`null\` or blank counts as omitted.`,
});

/** A Sentry protocol route (docs/sentry-sdks.md): 200 {"id"} for a well-formed body, the ingest API's errors otherwise. */
const SENTRY_PROJECT: ParameterDoc = {
  name: 'projectId',
  in: 'path',
  required: true,
  description: "The DSN's project id: digits, the key's.",
  schema: { type: 'string', pattern: '^[0-9]+$' },
};

function sentryRoute(operationId: string, summary: string, description: string, requestBody: RouteDoc['requestBody']): RouteDoc {
  return {
    operationId,
    summary,
    description,
    parameters: [SENTRY_PROJECT],
    requestBody,
    responses: {
      200: {
        description: 'Taken: its events stored (or already stored), its other items dropped.',
        schema: 'SentryAnswer',
        headers: ['Vary'],
        optionalHeaders: INGEST_CORS_HEADERS,
      },
      ...INGEST_POST_ERRORS,
      429: 'SentryRateLimited',
    },
  };
}

const sentryField = (description: string): FieldDoc => ({ description });

/** A Sentry envelope as the document shows it: text, its lines described. */
const SENTRY_ENVELOPE_BODY: RouteDoc['requestBody'] = {
  schemaName: 'SentryEnvelope',
  description: [
    'A Sentry envelope (https://develop.sentry.dev/sdk/envelopes/): a JSON header line (`event_id`, `dsn`, `sent_at`), then items, each a JSON header line',
    '(`type`, optional `length` in bytes) and its payload. Items of type `event` are stored as events; every other item is dropped and counted.',
    'An event item that is not a JSON object refuses the whole envelope (400): nothing of it is stored.',
    `At most ${SENTRY_LIMITS.bodyBytes / 1024} KiB as sent and ${SENTRY_LIMITS.decodedBytes / 1024} KiB once decoded (413); gzip, deflate or br as its Content-Encoding says;`,
    'any Content-Type is taken (the browser SDK sends text/plain, so that it needs no preflight).',
  ].join(' '),
  fields: {},
  contentTypes: ['application/x-sentry-envelope', 'text/plain'],
};

/** The store endpoint's one event (Python sentry-sdk 1.x). */
const SENTRY_STORE_BODY: RouteDoc['requestBody'] = {
  schemaName: 'SentryStoreEvent',
  description:
    'One Sentry event as JSON (https://develop.sentry.dev/sdk/data-model/event-payloads/), mapped to an own event: the fields listed are read, the others ignored.',
  fields: {
    event_id: sentryField("32 hex digits (or a UUID): the dedupe key, as an own event's `eventId`."),
    timestamp: sentryField('Seconds since the epoch, or an RFC 3339 time.'),
    message: sentryField('The message: a string, or `{formatted, message}`.'),
    logentry: sentryField('`{formatted, message}`: the message when `message` is absent.'),
    exception: sentryField('`{values: [...]}` (or the list itself): the exception chain, causes first, each with its `stacktrace.frames`.'),
    release: sentryField('The release.'),
    environment: sentryField('Stored as the tag `environment`.'),
    tags: sentryField('An object of tags, or a list of `[name, value]` pairs: strings, numbers and booleans kept as text.'),
    user: sentryField('The person: `email`, and `name` (else `username`), as the reporter.'),
    request: sentryField('`url`, stored as the page URL.'),
    fingerprint: sentryField("The grouping fingerprint, as the own API's; `{{ default }}` stands for the service's own rule."),
    debug_meta: sentryField("`images` of type `sourcemap` (`code_file`, `debug_id`): the scripts' debug ids for source maps."),
  },
};

/** The browser-side bug-reporting API (docs/ingest-api.md): lambda/ingest/api/routes.ts, INGEST_API. */
const INGEST_DOC: ApiDoc = {
  tag: {
    name: 'ingest',
    description:
      "Browser side: a customer's website reports errors, bug reports and feature requests from visitors' browsers with a publishable key bound to its origins. CORS on every answer; nothing is read back.",
  },
  security: {
    name: 'publishableKey',
    scheme: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'dfpk_…',
      description:
        "A publishable key (`dfpk_…`) in `Authorization: Bearer <key>`, or in the query parameter `key` (what `navigator.sendBeacon` can send); the same key if in both. Public by design: the request's `Origin` must be one the key was issued for. A secret `dfsk_` key is refused like an unknown one and marked exposed.",
    },
  },
  guardResponses: {},
  unmatchedResponses: { 404: 'IngestNoSuchEndpoint', 405: 'IngestMethodNotAllowed' },
  otherPaths: false,
  routes: {
    'POST /ingest/v1/events': {
      operationId: 'reportEvents',
      summary: 'Report error events and bug reports',
      description: `Stores 1 to ${MAX_EVENTS_PER_REQUEST} events, each validated on its own: the valid ones are stored (once per factory and \`eventId\`, whatever retries the browser makes), the invalid ones listed by index. The body may be sent as \`text/plain\` (what \`sendBeacon\` sends for a string), at most ${INGEST_BODY_LIMIT_BYTES.toLocaleString('en-US')} bytes. The server adds the origin, the user agent and the receive time; it never stores the key or the client's address. Never creates or changes a contact.`,
      requestBody: {
        schemaName: 'ReportEventsRequest',
        description: 'The events. Unknown fields are ignored.',
        fields: {
          events: {
            description: `1 to ${MAX_EVENTS_PER_REQUEST} events, each with \`eventId\` (a UUID, the dedupe key), \`type\` (\`error\` by default, \`bug_report\`, \`message\`), an optional ISO 8601 \`timestamp\`, a \`message\` (8,192) or an \`exception\` ({type 200, value 2,048, stack 16,384}), \`pageUrl\` (2,048), \`release\` (200), \`tags\` (at most 50 strings; names 64, values 200) and \`reporter\` ({email 254, name 200}, unverified).`,
            schema: { minItems: 1, maxItems: MAX_EVENTS_PER_REQUEST },
          },
        },
      },
      responses: {
        202: {
          description: 'What was stored, what the factory already had, and what was invalid.',
          schema: 'EventsReceipt',
          headers: ['Vary'],
          optionalHeaders: INGEST_CORS_HEADERS,
        },
        ...INGEST_POST_ERRORS,
      },
    },
    'POST /ingest/v1/feature-requests': {
      operationId: 'submitFeatureRequest',
      summary: 'Submit a feature request',
      description:
        'Stores one feature request, once per factory and `requestId`: the first time 201, the same `requestId` again 200 with the request as first stored. Never creates or changes a contact.',
      requestBody: {
        schemaName: 'SubmitFeatureRequestRequest',
        description: 'The feature request. Unknown fields are ignored.',
        fields: {
          requestId: { description: 'Required: a UUID, the idempotency key.' },
          title: {
            description: `Required: ${FEATURE_REQUEST_TEXT.titleMin} to ${FEATURE_REQUEST_TEXT.title} characters after trimming (shorter is 422, longer is clipped).`,
          },
          description: reportText('What is asked for.', FEATURE_REQUEST_TEXT.description),
          category: reportText("A category of the site's own.", FEATURE_REQUEST_TEXT.category),
          pageUrl: reportText('The page it was sent from.', 2048),
          reporter: { description: '`email` (254) and `name` (200), stored as given, unverified.' },
        },
      },
      responses: {
        200: {
          description: 'A request with this requestId was stored before: as first stored.',
          schema: 'FeatureRequestAnswer',
          headers: ['Vary'],
          optionalHeaders: INGEST_CORS_HEADERS,
        },
        201: { description: 'This call stored it.', schema: 'FeatureRequestAnswer', headers: ['Vary'], optionalHeaders: INGEST_CORS_HEADERS },
        ...INGEST_POST_ERRORS,
      },
    },
    'POST /ingest/v1/sessions': {
      operationId: 'reportSession',
      summary: "Report the page load's session (release health)",
      description: `One update of one session, as the browser SDK sends at each page load with a release set and again when the page first captures an error (\`errored\`) or has an unhandled one (\`crashed\`). Each update carries the whole state; it is recorded in the write that counts the per-address limit, so a resent one counts nothing twice (docs/release-health.md). Nothing is stored per session: only counters per release, environment and hour. At most ${SESSION_BODY_LIMIT_BYTES.toLocaleString('en-US')} bytes; \`text/plain\` is taken. Not counted against the key's per-minute limit.`,
      requestBody: {
        schemaName: 'ReportSessionRequest',
        description: 'The session. Unknown fields are ignored.',
        fields: {
          session: {
            description:
              '`sid` (a UUID the page made), `init` (true until an update was answered: it counts the session as started), `started` (ISO 8601 with a zone), `status` (`ok` by default, `errored`, `crashed`, `exited`), `errors` (0 to 1,000,000), `release` (required, 200) and `environment` (64, `production` by default), the last two scrubbed and clipped as any text.',
          },
        },
      },
      responses: {
        202: {
          description: "Taken (past a visitor's per-address cap of sessions, dropped and counted).",
          schema: 'SessionReceipt',
          headers: ['Vary'],
          optionalHeaders: INGEST_CORS_HEADERS,
        },
        ...INGEST_POST_ERRORS,
      },
    },
    'OPTIONS /ingest/v1/events': { ...PREFLIGHT, operationId: 'preflightEvents' },
    'OPTIONS /ingest/v1/sessions': { ...PREFLIGHT, operationId: 'preflightSessions' },
    'OPTIONS /ingest/v1/feature-requests': { ...PREFLIGHT, operationId: 'preflightFeatureRequests' },
    'POST /ingest/sentry/api/{projectId}/envelope': sentryRoute(
      'sentryEnvelope',
      'Sentry SDKs: an envelope',
      "A Sentry envelope (docs/sentry-sdks.md): its events stored as own events, other items dropped. The key from X-Sentry-Auth, ?sentry_key= or the envelope header's dsn; any content type; gzip, deflate or br.",
      SENTRY_ENVELOPE_BODY,
    ),
    'POST /ingest/sentry/api/{projectId}/store': sentryRoute(
      'sentryStore',
      'Sentry SDKs: one event (legacy store)',
      'One Sentry event as JSON (Python sentry-sdk 1.x), stored as an own event (docs/sentry-sdks.md).',
      SENTRY_STORE_BODY,
    ),
    'OPTIONS /ingest/sentry/api/{projectId}/envelope': { ...PREFLIGHT, operationId: 'preflightSentryEnvelope', parameters: [SENTRY_PROJECT] },
    'OPTIONS /ingest/sentry/api/{projectId}/store': { ...PREFLIGHT, operationId: 'preflightSentryStore', parameters: [SENTRY_PROJECT] },
  },
};

/** Every API of the route table, described; a test holds the keys and routes to API_TABLE. */
export const API_DOCS: { [Name in keyof typeof API_TABLE]: ApiDoc } = {
  contacts: CONTACTS_DOC,
  ingest: INGEST_DOC,
};

/** The component schemas one API's routes name (its request bodies and success answers). */
export function schemaNamesOf(doc: ApiDoc): Set<string> {
  const names = new Set<string>();
  for (const route of Object.values(doc.routes)) {
    if (route.requestBody) names.add(route.requestBody.schemaName);
    for (const response of Object.values(route.responses)) if (typeof response === 'object' && response.schema) names.add(response.schema);
  }
  return names;
}
