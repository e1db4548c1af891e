import type { MiddlewareObj } from '@middy/core';
import { log } from '../log';
import type { ApiContext, ApiEvent, ApiResult } from '../types';

/**
 * One log line per request: method, path, status, latency and the caller's
 * factory and key id. Never the query string (it can hold an email), headers
 * or the body.
 */
export function requestLog(): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext, { startedAt?: number }> {
  const done = ({ event, context, response, internal }: {
    event: ApiEvent;
    context: ApiContext;
    response: ApiResult | null;
    internal: { startedAt?: number };
  }) => {
    log('info', 'request', {
      requestId: context.awsRequestId,
      method: event.httpMethod,
      path: event.path,
      status: response?.statusCode,
      ms: internal.startedAt === undefined ? undefined : Date.now() - internal.startedAt,
      factoryId: context.caller?.factoryId,
      keyId: context.caller?.keyId,
    });
  };
  return {
    name: 'requestLog',
    before: ({ internal }) => {
      internal.startedAt = Date.now();
    },
    after: done,
    onError: done,
  };
}
