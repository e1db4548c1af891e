import middy, { type Request } from '@middy/core';
import httpErrorHandler from '@middy/http-error-handler';
import httpEventNormalizer from '@middy/http-event-normalizer';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { Context } from 'aws-lambda';
import { requestId } from './middleware/request-id';
import { requestRecord } from './middleware/request-record';
import { responseHeaders } from './middleware/response-headers';
import { serverErrors } from './middleware/server-errors';
import { createRouter, routeLabeler, type Route } from './router';
import { CONTACTS_API, INGEST_API, type ApiSpec, type ContactsDependencies, type IngestDependencies, type RouteSpec } from './routes';
import type { ApiContext, ApiEvent, ApiResult, RouteHandler } from './types';

/** The Lambda handler: an API Gateway (REST, v1) proxy event in, a proxy result out. */
export type ApiHandler = (event: ApiEvent, context: Context) => Promise<ApiResult>;

/** Answer early, as a 503, this long before the Lambda would be killed. */
const TIMEOUT_MARGIN_MS = 500;

/** A route's steps and operation as one handler: the steps' `before` in order, then the operation. */
function compileRoute<Deps>(route: RouteSpec<Deps>, deps: Deps): Route {
  const operation = route.operation(deps);
  const specified = typeof route.steps === 'function' ? route.steps(deps) : route.steps;
  const steps = specified.flatMap((step) => (step.before ? [step.before] : []));
  const handler: RouteHandler = async (event, context) => {
    const request = { event, context, response: null, error: null, internal: {} } as unknown as Request<ApiEvent, ApiResult, Error, ApiContext>;
    for (const before of steps) await before(request);
    return operation(request.event, context);
  };
  return { method: route.method, path: route.path, handler };
}

/**
 * One API of the route table (routes.ts) as one Middy pipeline, compiled
 * once per container; the same on Lambda and behind the local HTTP adapter.
 * Around the API's own guards and routes, every request gets the same
 * treatment: an `X-Request-Id` on every answer, one log line and its metrics
 * (both on stdout), errors as `{"error": …}`, storage failures as 503. The
 * API's `answers` middlewares (its CORS rule) sit outside the error handler,
 * so they shape errors too.
 */
export function createHandler<Deps>(api: ApiSpec<Deps>, deps: Deps): ApiHandler {
  const routes = api.routes.map((route) => compileRoute(route, deps));
  const label = routeLabeler(routes);
  // Worked out once per request, for the log line and the metrics alike.
  const routeOf = (event: ApiEvent, context: ApiContext) => (context.route ??= label(event.httpMethod, event.path));
  const router = createRouter(routes, api.home);
  let pipeline = middy<ApiEvent, ApiResult, Error, ApiContext>({ timeoutEarlyInMillis: TIMEOUT_MARGIN_MS })
    .use(httpHeaderNormalizer())
    .use(httpEventNormalizer())
    .use(requestRecord(routeOf, { countsOf: api.countsOf }))
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
    .use(serverErrors(api.unavailable));
  for (const guard of api.guards(deps)) pipeline = pipeline.use(guard);
  // Middy types the input as already normalized (non-null query and path
  // parameters); it accepts any API Gateway proxy event, which is what this says.
  const handler = pipeline.handler(api.wrapRoutes ? api.wrapRoutes(router) : router) as unknown as ApiHandler;
  // What the pipeline keeps on the context is this request's alone (a fresh log
  // of its storage calls, for its log line and metrics), even on a reused context.
  return (event, context) =>
    handler(event, Object.assign(context, { calls: { calls: 0, latenciesMs: [] }, route: undefined, caller: undefined, confirmation: undefined, rate: undefined, failure: undefined, client: undefined, logFields: undefined, counts: undefined }));
}

/** What the contacts API's entry point, the tests and the tools build it from. */
export type ApiDependencies = ContactsDependencies;

/** The contacts API (routes.ts, CONTACTS_API). */
export function createApiHandler(deps: ApiDependencies): ApiHandler {
  return createHandler(CONTACTS_API, deps);
}

/** The ingest API (routes.ts, INGEST_API). */
export function createIngestHandler(deps: IngestDependencies): ApiHandler {
  return createHandler(INGEST_API, deps);
}
