import type { MiddlewareObj } from '@middy/core';
import { RequestMetrics, type RequestOutcome } from '../../observability/metrics';
import type { ApiContext, ApiEvent, ApiResult } from '../types';

/** Once per container: options from the environment. */
const containerMetrics = new RequestMetrics();

/**
 * Per request, in CloudWatch embedded metric format (no API call): the
 * totals the alarms divide, contacts created vs updated, DynamoDB calls and
 * the latency of each, and `Requests` by route and status class (see
 * RequestMetrics for the document).
 */
export function requestMetrics(
  routeOf: (event: ApiEvent, context: ApiContext) => string,
  metrics: RequestMetrics = containerMetrics,
): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> {
  const done = ({ event, context, response }: { event: ApiEvent; context: ApiContext; response: ApiResult | null }) => {
    const status = response?.statusCode ?? 500;
    const outcome: RequestOutcome = { route: routeOf(event, context), status };
    if (event.httpMethod === 'POST' && (status === 200 || status === 201)) outcome.upsert = status === 201 ? 'created' : 'updated';
    if (context.calls) outcome.dynamo = context.calls;
    metrics.publish(outcome);
  };
  return { name: 'requestMetrics', after: done, onError: done };
}
