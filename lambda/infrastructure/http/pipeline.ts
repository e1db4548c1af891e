import middy, { type MiddlewareObj } from '@middy/core';
import httpErrorHandler from '@middy/http-error-handler';
import httpEventNormalizer from '@middy/http-event-normalizer';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import { withCallLog } from '../observability/call-log';
import { loggerFromEnv } from '../observability/logger';
import { metricsOptionsFromEnv, RequestMetrics } from '../observability/metrics';
import { requestId } from './middleware/request-id';
import type { CountsOf } from './middleware/request-metrics';
import { requestRecord } from './middleware/request-record';
import { responseHeaders } from './middleware/response-headers';
import { serverErrors } from './middleware/server-errors';
import { newRequestState, type RequestState } from './request-state';
import { createRouter, routeLabeler, type Method, type Route } from './router';
import type { ApiContext, ApiEvent, ApiResult, RouteHandler } from './types';

/** The Lambda handler: an API Gateway (REST, v1) proxy event in, a proxy result out. */
export type ApiHandler = (event: ApiEvent, context: Context) => Promise<ApiResult>;

/** A middleware of the pipeline: an API's guards and the shape of its answers. */
export type ApiMiddleware<Slot extends object = object> = MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext<Slot>>;

/** A check of a route, run before its body is read: refuses the request by throwing its answer, or lets it through. */
export type Check<Slot extends object = object> = (event: ApiEvent, state: RequestState<Slot>) => void | Promise<void>;

/** A check of a body-first route (BodyFirstRouteSpec), run once the body is read: it sees the body too. */
export type BodyCheck<Slot extends object, Body> = (event: ApiEvent, state: RequestState<Slot>, body: Body) => void | Promise<void>;

/** How a route reads its body (JSON 400, content 422; a body-first route's own refusals): what its operation receives. */
export interface BodyReader<Body> {
  read(event: ApiEvent): Body;
  /** What the OpenAPI document says the body is. */
  schema?: z.ZodMiniType;
}

/** What a route's operation receives: the request, its state, and its body as the route's reader read it. */
export interface RouteInput<Body, Slot extends object = object> {
  event: ApiEvent;
  state: RequestState<Slot>;
  body: Body;
}

/** A route's operation: the answer to a request its checks let through. */
export type Operation<Body = undefined, Slot extends object = object> = (input: RouteInput<Body, Slot>) => Promise<ApiResult>;

/** For a route without a body (GET, OPTIONS). */
export const NO_BODY: BodyReader<undefined> = { read: () => undefined };

/** Checks as a route's table writes them: in order, built from the dependencies when they need them. */
type Checks<Deps, C> = readonly C[] | ((deps: Deps) => readonly C[]);

/** One route as its API's table writes it: where, what it checks (in order), how it reads its body, and its operation. */
export interface RouteSpec<Deps, Body, Slot extends object = object> {
  method: Method;
  /** Path pattern, parameters in braces: `/api/v1/contacts/{id}`. */
  path: string;
  /** The usual order: the checks (key, size, limits) before the body is read. */
  bodyFirst?: false;
  /** In order, before the body is read. */
  checks?: Checks<Deps, Check<Slot>>;
  body: BodyReader<Body>;
  operation: (deps: Deps) => Operation<Body, Slot>;
}

/**
 * A route whose body is read before its checks, because they need what is
 * in it (the Sentry protocol: the key may travel in the envelope's header).
 * The reader's refusals (413, 415, 400) then come before the key's (401);
 * the checks and the operation receive the body read once.
 */
export interface BodyFirstRouteSpec<Deps, Body, Slot extends object = object> {
  method: Method;
  path: string;
  bodyFirst: true;
  body: BodyReader<Body>;
  /** In order, once the body is read. */
  checks?: Checks<Deps, BodyCheck<Slot, Body>>;
  operation: (deps: Deps) => Operation<Body, Slot>;
}

/** A route of an API's table, its body's type sealed in by route(): what the pipeline compiles and the OpenAPI document reads. */
export interface ApiRoute<Deps, Slot extends object = object> {
  method: Method;
  path: string;
  /** The route reads a body (every route but GET and OPTIONS ones). */
  readsBody: boolean;
  /** The body is read before the route's checks (BodyFirstRouteSpec). */
  bodyFirst: boolean;
  /** The body's zod schema for the OpenAPI document, when its reader is one (openapi/ingest-bodies.ts has the others). */
  body?: z.ZodMiniType;
  compile(deps: Deps): Route<Slot>;
}

const checksOf = <Deps, C>(checks: Checks<Deps, C> | undefined, deps: Deps): readonly C[] => (typeof checks === 'function' ? checks(deps) : (checks ?? []));

/**
 * A route for an API's table. The body its reader gives is the body its
 * operation takes (the type checker holds the two together here). A route
 * runs its checks in order, reads the body, then runs the operation; a
 * body-first route reads the body, runs its checks on it, then the operation.
 */
export function route<Deps, Body, Slot extends object = object>(spec: RouteSpec<Deps, Body, Slot>): ApiRoute<Deps, Slot>;
export function route<Deps, Body, Slot extends object = object>(spec: BodyFirstRouteSpec<Deps, Body, Slot>): ApiRoute<Deps, Slot>;
export function route<Deps, Body, Slot extends object = object>(
  spec: RouteSpec<Deps, Body, Slot> | BodyFirstRouteSpec<Deps, Body, Slot>,
): ApiRoute<Deps, Slot> {
  const { method, path, body } = spec;
  const bodyFirst = spec.bodyFirst === true;
  return {
    method,
    path,
    readsBody: body !== NO_BODY,
    bodyFirst,
    body: body.schema,
    compile: (deps) => {
      const operation = spec.operation(deps);
      let handler: RouteHandler<Slot>;
      if (spec.bodyFirst === true) {
        const checks = checksOf(spec.checks, deps);
        handler = async (event, { state }) => {
          const read = body.read(event);
          for (const check of checks) await check(event, state, read);
          return operation({ event, state, body: read });
        };
      } else {
        const checks = checksOf(spec.checks, deps);
        handler = async (event, { state }) => {
          for (const check of checks) await check(event, state);
          return operation({ event, state, body: body.read(event) });
        };
      }
      return { method, path, handler };
    },
  };
}

/**
 * One API of the host: the paths it owns, the checks every request to it
 * meets before routing (so an unknown path with a bad key is still 401),
 * and its routes. Each API is its own Lambda function on AWS, built from its
 * own table (contacts/routes.ts, ingest/routes.ts); locally `npm start`
 * serves them all on one port, choosing by prefix.
 */
export interface ApiSpec<Deps, Slot extends object = object> {
  name: string;
  /**
   * The service its log lines and metrics name when `POWERTOOLS_SERVICE_NAME`
   * is unset: on AWS the stack sets that variable to this same name for the
   * API's function; locally both APIs share one process, and this tells them apart.
   */
  service: string;
  /** Every path under it belongs to this API. */
  prefix: string;
  /** Where a 404 sends the caller. */
  home: string;
  /** What only this API's requests keep, made empty for each request: the request state's `slot`. */
  slot: () => Slot;
  guards: (deps: Deps) => ApiMiddleware<Slot>[];
  /** Shape every answer, errors included (they run outside the error handler): the API's CORS rule. */
  answers: () => ApiMiddleware<Slot>[];
  /** What the request's metrics count beyond the totals. */
  countsOf: CountsOf;
  /** The message of a 503 (storage unavailable). */
  unavailable: string;
  /** Wraps the compiled routes (the contacts API's speculative reads). */
  wrapRoutes?: (routes: RouteHandler<Slot>) => RouteHandler<Slot>;
  routes: ApiRoute<Deps, Slot>[];
}

/** Answer early, as a 503, this long before the Lambda would be killed. */
const TIMEOUT_MARGIN_MS = 500;

/**
 * This request's view of the Lambda context: reads go through to the
 * function's own context, and the request's state (and anything a
 * middleware might write) lives on this object, made anew for each request,
 * never on the context the runtime hands to every request of the container.
 */
function requestContext<Slot extends object>(context: Context, slot: Slot): ApiContext<Slot> {
  return Object.create(context, { state: { value: newRequestState(slot), enumerable: true } });
}

/**
 * One API's table as one Middy pipeline, compiled once per container; the
 * same on Lambda and behind the local HTTP adapter. Around the API's own
 * guards and routes, every request gets the same treatment: an
 * `X-Request-Id` on every answer, one log line and its metrics (both on
 * stdout), errors as `{"error": …}`, storage failures as 503. The API's
 * `answers` middlewares (its CORS rule) sit outside the error handler, so
 * they shape errors too.
 */
export function createHandler<Deps, Slot extends object>(api: ApiSpec<Deps, Slot>, deps: Deps): ApiHandler {
  const routes = api.routes.map((apiRoute) => apiRoute.compile(deps));
  const label = routeLabeler(routes);
  // Worked out once per request, for the log line and the metrics alike.
  const routeOf = (event: ApiEvent, state: RequestState) => (state.route ??= label(event.httpMethod, event.path));
  const router = createRouter(routes, api.home);
  const logger = loggerFromEnv(process.env, api.service);
  const metrics = new RequestMetrics(metricsOptionsFromEnv(process.env, api.service));
  let pipeline = middy<ApiEvent, ApiResult, Error, ApiContext<Slot>>({ timeoutEarlyInMillis: TIMEOUT_MARGIN_MS })
    .use(httpHeaderNormalizer())
    .use(httpEventNormalizer())
    .use(requestRecord(routeOf, { countsOf: api.countsOf, logger, metrics }))
    .use(requestId())
    .use(responseHeaders());
  for (const answer of api.answers()) pipeline = pipeline.use(answer);
  pipeline = pipeline
    .use(
      httpErrorHandler({
        logger: false,
        fallbackMessage: JSON.stringify({ error: 'Internal error: the request failed on our side; retry later.' }),
      }),
    )
    .use(serverErrors(api.unavailable, logger));
  for (const guard of api.guards(deps)) pipeline = pipeline.use(guard);
  const handler = pipeline.handler(api.wrapRoutes ? api.wrapRoutes(router) : router);
  // Middy's types take the event as already normalized (non-null query and path parameters) once
  // http-event-normalizer is used; it is that middleware that normalizes any API Gateway proxy event.
  return (event, context) => {
    const requestOwn = requestContext(context, api.slot());
    // Every storage call of this request counts into its own call log, wherever it is made (call-log.ts).
    return withCallLog(requestOwn.state.calls, () => handler(event as Parameters<typeof handler>[0], requestOwn));
  };
}
