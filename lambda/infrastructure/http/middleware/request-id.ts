import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { REQUEST_ID_HEADER } from '../../observability/names';
import { requestIdOf } from '../request-id';
import type { ApiEvent, ApiResult } from '../types';

/**
 * Puts the request id on every response, errors included, so a caller can
 * quote it and an operator can find the request's log line (same id).
 */
export function requestId(): MiddlewareObj<ApiEvent, ApiResult, Error, Context> {
  const apply = ({ event, context, response }: { event: ApiEvent; context: Context; response: ApiResult | null }) => {
    if (!response) return;
    (response.headers ??= {})[REQUEST_ID_HEADER] = requestIdOf(event, context);
  };
  return { name: 'requestId', after: apply, onError: apply };
}
