import type { MiddlewareObj } from '@middy/core';
import { logger } from '../../observability/logger';
import { requestIdOf } from '../request-id';
import type { ApiContext, ApiEvent, ApiResult } from '../types';

let coldStart = true;

/**
 * One JSON log line per request (lambda/observability/logger.ts): request id
 * (the one in the `X-Request-Id` response header), route, status, latency, DynamoDB calls
 * and their time, the caller's factory and key id, and for a 5xx the class of
 * the error behind it, and what the API itself adds (`context.logFields`).
 * Never the raw path or query string (they can hold an email or a key),
 * headers or the body.
 */
export function requestLog(
  routeOf: (event: ApiEvent, context: ApiContext) => string,
): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext, { startedAt?: number }> {
  const done = ({ event, context, response, internal }: {
    event: ApiEvent;
    context: ApiContext;
    response: ApiResult | null;
    internal: { startedAt?: number };
  }) => {
    const status = response?.statusCode ?? 500;
    const dynamo = context.calls;
    const fields: Record<string, unknown> = {
      requestId: requestIdOf(event, context),
      lambdaRequestId: context.awsRequestId,
      route: routeOf(event, context),
      status,
      latencyMs: internal.startedAt === undefined ? undefined : Math.round(performance.now() - internal.startedAt),
      dynamoCalls: dynamo?.calls,
      dynamoMs: dynamo && Math.round(dynamo.latenciesMs.reduce((sum, ms) => sum + ms, 0)),
      factoryId: context.caller?.factoryId,
      keyId: context.caller?.keyId,
      errorClass: status >= 500 ? (context.failure ?? 'unknown') : undefined,
    };
    // Assigned, not spread: the line is built for every request (see metrics.ts).
    const extra = context.logFields;
    if (extra) for (const name in extra) fields[name] = extra[name];
    fields.coldStart = coldStart;
    coldStart = false;
    if (status >= 500) logger.error('request', fields);
    else logger.info('request', fields);
  };
  return {
    name: 'requestLog',
    before: ({ internal }) => {
      internal.startedAt = performance.now();
    },
    after: done,
    onError: done,
  };
}
