import type { MiddlewareObj } from '@middy/core';
import { BODY_LIMIT_BYTES } from '../domain/limits';
import type { ContactStore, KeyAuthorizer } from '../domain/ports';
import { upsertBody } from '../domain/upsert-input';
import { authenticate } from './middleware/authenticate';
import { bodyLimit } from './middleware/body-limit';
import { jsonBody } from './middleware/json-body';
import { refuseOrigin } from './middleware/refuse-origin';
import { validateBody } from './middleware/validate-body';
import { findContactOperation, getContactOperation } from './operations/get-contact';
import { upsertContactOperation } from './operations/upsert-contact';
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
  /** Body size, JSON, schema…: each may change the event or throw the answer. */
  steps: ApiMiddleware[];
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
 * The contacts API (spec 4): server-to-server, secret keys only. Every
 * request meets, in this order: Origin header 403 → key 401 → rate limit 429
 * → route 404 / method 405 → then the route's steps: body size 413 → JSON
 * 400 → validation 422 → the operation (404) → storage 503.
 */
export const CONTACTS_API: ApiSpec<ContactsDependencies> = {
  name: 'contacts',
  prefix: '/api/v1/',
  home: 'The contacts API lives under /api/v1/contacts.',
  guards: (deps) => [refuseOrigin(), authenticate(deps.keys, deps.now)],
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

/** Every API this host serves, by name: the one route table. */
export const API_TABLE = { contacts: CONTACTS_API } as const;
