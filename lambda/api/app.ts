import middy from '@middy/core';
import httpErrorHandler from '@middy/http-error-handler';
import httpEventNormalizer from '@middy/http-event-normalizer';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { ContactStore, KeyAuthorizer } from '../domain/ports';
import { withDynamoStats } from '../observability/dynamo-stats';
import { answerWhenConfirmed, authenticate } from './middleware/authenticate';
import { refuseOrigin } from './middleware/refuse-origin';
import { requestId } from './middleware/request-id';
import { requestLog } from './middleware/request-log';
import { requestMetrics } from './middleware/request-metrics';
import { responseHeaders } from './middleware/response-headers';
import { serverErrors } from './middleware/server-errors';
import { findContactRoute, getContactRoute } from './operations/get-contact';
import { upsertContactRoute } from './operations/upsert-contact';
import { createRouter, routeLabeler, type Route } from './router';
import type { Context } from 'aws-lambda';
import type { ApiContext, ApiEvent, ApiResult } from './types';

/** The Lambda handler: an API Gateway (REST, v1) proxy event in, a proxy result out. */
export type ApiHandler = (event: ApiEvent, context: Context) => Promise<ApiResult>;

export interface ApiDependencies {
  contacts: ContactStore;
  keys: KeyAuthorizer;
  now?: () => number;
}

/** Answer early, as a 503, this long before the Lambda would be killed. */
const TIMEOUT_MARGIN_MS = 500;

/**
 * The contacts API as one Middy pipeline, the same on Lambda and behind the
 * local HTTP adapter. Every request meets the checks in this order; the first
 * that fails answers:
 *
 *   Origin header 403 → key 401 → rate limit 429 → route 404 / method 405
 *   → body size 413 → JSON 400 → validation 422 → operation (404) → storage 503
 *
 * Every answer carries `X-Request-Id`, and every request writes one log line
 * and its metrics (both on stdout).
 */
export function createApiHandler(deps: ApiDependencies): ApiHandler {
  const routes: Route[] = [
    { method: 'POST', path: '/api/v1/contacts', handler: upsertContactRoute(deps.contacts) },
    { method: 'GET', path: '/api/v1/contacts', handler: findContactRoute(deps.contacts) },
    { method: 'GET', path: '/api/v1/contacts/{id}', handler: getContactRoute(deps.contacts) },
  ];
  const routeOf = routeLabeler(routes);
  const pipeline = middy<ApiEvent, ApiResult, Error, ApiContext>({ timeoutEarlyInMillis: TIMEOUT_MARGIN_MS })
    .use(httpHeaderNormalizer())
    .use(httpEventNormalizer())
    .use(requestLog(routeOf))
    .use(requestMetrics(routeOf))
    .use(requestId())
    .use(responseHeaders())
    .use(
      httpErrorHandler({
        logger: false,
        fallbackMessage: JSON.stringify({ error: 'Internal error: the request failed on our side; retry later.' }),
      }),
    )
    .use(serverErrors())
    .use(refuseOrigin())
    .use(authenticate(deps.keys, deps.now))
    .handler(answerWhenConfirmed(createRouter(routes)));
  // Middy types the input as already normalized (non-null query and path
  // parameters); it accepts any API Gateway proxy event, which is what this says.
  const handler = pipeline as unknown as ApiHandler;
  // The DynamoDB calls made while serving this request, for its log line and metrics.
  return (event, context) => withDynamoStats(() => handler(event, context));
}
