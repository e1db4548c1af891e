import type { MiddlewareObj } from '@middy/core';
import { RequestMetrics, type RequestOutcome } from '../../observability/metrics';
import type { ApiContext, ApiEvent, ApiResult } from '../types';

/** Once per container: options from the environment. */
const containerMetrics = new RequestMetrics();

/** What an API adds to a request's metrics, from its answer and what its steps noted. */
export type CountsOf = (request: { event: ApiEvent; status: number; context: ApiContext }) => Pick<RequestOutcome, 'upsert' | 'counts'>;

/** The contacts API: a POST answered 201 created a contact, 200 updated one. */
export const upsertCounts: CountsOf = ({ event, status }) =>
  event.httpMethod === 'POST' && (status === 200 || status === 201) ? { upsert: status === 201 ? 'created' : 'updated' } : {};

/** What the request's steps and operation noted in `context.counts` (the ingest API). */
export const notedCounts: CountsOf = ({ context }) => (context.counts ? { counts: context.counts } : {});

/**
 * Per request, in CloudWatch embedded metric format (no API call): the
 * totals the alarms divide, what the API counts (`countsOf`: contacts
 * created vs updated; events accepted…), DynamoDB calls and
 * the latency of each, and `Requests` by route and status class (see
 * RequestMetrics for the document).
 */
export function requestMetrics(
  routeOf: (event: ApiEvent, context: ApiContext) => string,
  metrics: RequestMetrics = containerMetrics,
  countsOf: CountsOf = upsertCounts,
): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> {
  const done = ({ event, context, response }: { event: ApiEvent; context: ApiContext; response: ApiResult | null }) => {
    const status = response?.statusCode ?? 500;
    const outcome: RequestOutcome = { route: routeOf(event, context), status };
    const counted = countsOf({ event, status, context });
    if (counted.upsert) outcome.upsert = counted.upsert;
    if (counted.counts) outcome.counts = counted.counts;
    if (context.calls) outcome.dynamo = context.calls;
    metrics.publish(outcome);
  };
  return { name: 'requestMetrics', after: done, onError: done };
}
