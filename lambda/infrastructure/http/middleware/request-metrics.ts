import type { RequestOutcome } from '../../observability/metrics';
import type { RequestState } from '../request-state';
import type { ApiEvent } from '../types';

/** What an API adds to a request's metrics, by metric name, from its answer and what its steps noted (undefined: nothing). */
export type CountsOf = (request: { event: ApiEvent; status: number; state: RequestState }) => RequestOutcome['counts'];

/** What the request's checks and operation noted in its state's `counts`. */
export const notedCounts: CountsOf = ({ state }) => state.counts;

/** An API that counts nothing beyond the totals every request gets. */
export const noCounts: CountsOf = () => undefined;

/**
 * What a request's metrics count (written by request-record.ts, as EMF; see
 * RequestMetrics for the document): the totals the alarms divide, what the
 * API counts (its `countsOf`, by metric name),
 * DynamoDB calls and the latency of each, and `Requests` by route and
 * status class.
 */
export function requestOutcome(request: { event: ApiEvent; state: RequestState; route: string; status: number }, countsOf: CountsOf): RequestOutcome {
  const { state, status } = request;
  const outcome: RequestOutcome = { route: request.route, status };
  const counts = countsOf(request);
  if (counts) outcome.counts = counts;
  outcome.dynamo = state.calls;
  return outcome;
}
