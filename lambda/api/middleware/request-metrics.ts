import type { MiddlewareObj } from '@middy/core';
import { currentDynamoStats } from '../../observability/dynamo-stats';
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
  routeOf: (method: string, path: string) => string,
  metrics: RequestMetrics = containerMetrics,
): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> {
  const done = ({ event, response }: { event: ApiEvent; response: ApiResult | null }) => {
    const status = response?.statusCode ?? 500;
    const outcome: RequestOutcome = { route: routeOf(event.httpMethod, event.path), status };
    if (event.httpMethod === 'POST' && (status === 200 || status === 201)) outcome.upsert = status === 201 ? 'created' : 'updated';
    const dynamo = currentDynamoStats();
    if (dynamo) outcome.dynamo = dynamo;
    metrics.publish(outcome);
  };
  return { name: 'requestMetrics', after: done, onError: done };
}
