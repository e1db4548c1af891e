import type { MiddlewareObj } from '@middy/core';
import type * as z from 'zod/mini';
import { BODY_LIMIT_BYTES } from '../domain/limits';
import type { ContactStore, KeyAuthorizer } from '../domain/ports';
import { upsertBody } from '../domain/upsert-input';
import { INGEST_BODY_LIMIT_BYTES } from '../ingest/limits';
import { eventsRequestSchema, featureRequestSchema } from '../ingest/payloads';
import type { AddressLimiter, IngestKeyAuthorizer, ReportStore } from '../ingest/ports';
import { authenticate } from './middleware/authenticate';
import { bodyLimit } from './middleware/body-limit';
import { requireContentType } from './middleware/content-type';
import { corsHeaders, noCorsHeaders } from './middleware/cors';
import { ingestAccess } from './middleware/ingest-access';
import { jsonBody } from './middleware/json-body';
import { rateLimitHeaders } from './middleware/rate-limit-headers';
import { refuseOrigin } from './middleware/refuse-origin';
import { notedCounts, upsertCounts, type CountsOf } from './middleware/request-metrics';
import { CONTACTS_UNAVAILABLE } from './middleware/server-errors';
import { bodySchemaOf, validateBody } from './middleware/validate-body';
import { findContactOperation, getContactOperation } from './operations/get-contact';
import { preflightOperation } from './operations/preflight';
import { receiveEventsOperation } from './operations/receive-events';
import { submitFeatureRequestOperation } from './operations/submit-feature-request';
import { upsertContactOperation } from './operations/upsert-contact';
import { API_PREFIXES } from './prefixes';
import type { Method } from './router';
import { answerWhenConfirmed } from './speculative-read';
import type { ApiContext, ApiEvent, ApiResult, RouteHandler } from './types';

/** A middleware of the pipeline, or a step of one route (these only use `before`). */
export type ApiMiddleware = MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext>;

/** One route: where, what it checks before its operation (in order), and the operation. */
export interface RouteSpec<Deps> {
  method: Method;
  /** Path pattern, parameters in braces: `/api/v1/contacts/{id}`. */
  path: string;
  /** Body size, JSON, schema…: each may change the event or throw the answer. Built from the dependencies when they need them. */
  steps: ApiMiddleware[] | ((deps: Deps) => ApiMiddleware[]);
  /**
   * The body's schema, for the OpenAPI document, when the steps are built
   * from the dependencies (the document reads a static validateBody step
   * itself) or the operation validates the body in parts (the ingest API's
   * events, each on its own).
   */
  body?: z.ZodMiniType;
  operation: (deps: Deps) => RouteHandler;
}

/**
 * One API of the host: the paths it owns, the checks every request to it
 * meets before routing (so an unknown path with a bad key is still 401),
 * and its routes. Each API is its own Lambda function on AWS; locally
 * `npm start` serves them all on one port, choosing by prefix.
 */
export interface ApiSpec<Deps> {
  name: string;
  /** Every path under it belongs to this API. */
  prefix: string;
  /** Where a 404 sends the caller. */
  home: string;
  guards: (deps: Deps) => ApiMiddleware[];
  /** Shape every answer, errors included (they run outside the error handler): the API's CORS rule. */
  answers: () => ApiMiddleware[];
  /** What the request's metrics count beyond the totals. */
  countsOf: CountsOf;
  /** The message of a 503 (storage unavailable). */
  unavailable: string;
  /** Wraps the compiled routes (the contacts API's speculative reads). */
  wrapRoutes?: (routes: RouteHandler) => RouteHandler;
  routes: RouteSpec<Deps>[];
}

/** What the contacts API needs: its stores, and a clock the tests can move. */
export interface ContactsDependencies {
  contacts: ContactStore;
  keys: KeyAuthorizer;
  now?: () => number;
}

/**
 * The contacts API (docs/contacts-api.md): server-to-server, secret keys only. Every
 * request meets, in this order: Origin header 403 → key 401 → rate limit 429
 * → route 404 / method 405 → then the route's steps: body size 413 → JSON
 * 400 → validation 422 → the operation (404) → storage 503.
 */
export const CONTACTS_API: ApiSpec<ContactsDependencies> = {
  name: 'contacts',
  prefix: API_PREFIXES.contacts,
  home: 'The contacts API lives under /api/v1/contacts.',
  guards: (deps) => [refuseOrigin(), authenticate(deps.keys, deps.now)],
  answers: () => [noCorsHeaders(), rateLimitHeaders()],
  countsOf: upsertCounts,
  unavailable: CONTACTS_UNAVAILABLE,
  wrapRoutes: answerWhenConfirmed,
  routes: [
    {
      method: 'POST',
      path: '/api/v1/contacts',
      steps: [bodyLimit(BODY_LIMIT_BYTES), jsonBody(), validateBody(upsertBody)],
      // The steps above turn the raw event into EventWithBody<UpsertInput>.
      operation: (deps) => upsertContactOperation(deps.contacts) as unknown as RouteHandler,
    },
    { method: 'GET', path: '/api/v1/contacts', steps: [], operation: (deps) => findContactOperation(deps.contacts) },
    { method: 'GET', path: '/api/v1/contacts/{id}', steps: [], operation: (deps) => getContactOperation(deps.contacts) },
  ],
};

/** What the ingest API needs: the key calls, the per-address limiter, the reports, retention, and a clock the tests can move. */
export interface IngestDependencies {
  keys: IngestKeyAuthorizer;
  limiter: AddressLimiter;
  reports: ReportStore;
  /** Days a report is kept before DynamoDB's TTL removes it. */
  retentionDays: number;
  now?: () => number;
}

/** The media types an ingest body may be sent as: JSON, or text (what navigator.sendBeacon sends for a string). */
const INGEST_CONTENT_TYPES = ['application/json', 'text/plain'];

/** Every POST's steps up to its JSON, in the ingest precedence. */
const ingestSteps = (deps: IngestDependencies, limits: Parameters<typeof ingestAccess>[1], example: string): ApiMiddleware[] => [
  requireContentType(INGEST_CONTENT_TYPES),
  bodyLimit(INGEST_BODY_LIMIT_BYTES),
  ingestAccess(deps, limits),
  jsonBody(example),
];

/**
 * The browser-side bug-reporting API (docs/ingest-api.md): publishable keys
 * bound to origins, CORS on every answer. No guard runs before routing, so a
 * preflight answers without a key lookup. In this order: route 404 →
 * OPTIONS 204 (preflight) → method 405 → content type 415 → body size 413 →
 * key 401 → origin 403 → limits 429 → JSON 400 → content 422 → storage 503.
 */
export const INGEST_API: ApiSpec<IngestDependencies> = {
  name: 'ingest',
  prefix: API_PREFIXES.ingest,
  home: 'The ingest API takes POST /ingest/v1/events and POST /ingest/v1/feature-requests.',
  guards: () => [],
  answers: () => [corsHeaders()],
  countsOf: notedCounts,
  unavailable:
    'The report store is temporarily unavailable: retry the same request (retrying is safe: each event and feature request is stored once).',
  routes: [
    {
      method: 'POST',
      path: '/ingest/v1/events',
      steps: (deps) => ingestSteps(deps, ['requests'], '{"events": [{"eventId": "<uuid>", "message": "…"}]}'),
      body: eventsRequestSchema,
      // The steps above turn the raw event into EventWithBody<unknown>: each event is validated on its own.
      operation: (deps) => receiveEventsOperation(deps) as unknown as RouteHandler,
    },
    {
      method: 'POST',
      path: '/ingest/v1/feature-requests',
      steps: (deps) => [
        ...ingestSteps(deps, ['requests', 'featureRequests'], '{"requestId": "<uuid>", "title": "Dark mode"}'),
        validateBody(featureRequestSchema),
      ],
      body: featureRequestSchema,
      // The steps above turn the raw event into EventWithBody<FeatureRequestInput>.
      operation: (deps) => submitFeatureRequestOperation(deps) as unknown as RouteHandler,
    },
    { method: 'OPTIONS', path: '/ingest/v1/events', steps: [], operation: () => preflightOperation() },
    { method: 'OPTIONS', path: '/ingest/v1/feature-requests', steps: [], operation: () => preflightOperation() },
  ],
};

/** The schema a route's body is documented with (RouteSpec.body, or its static validateBody step's). */
export function routeBodySchema(route: Pick<RouteSpec<never>, 'steps' | 'body'>): z.ZodMiniType | undefined {
  return route.body ?? (Array.isArray(route.steps) ? bodySchemaOf(route.steps) : undefined);
}

/** Every API this host serves, by name: the one route table. */
export const API_TABLE = { contacts: CONTACTS_API, ingest: INGEST_API } as const;
