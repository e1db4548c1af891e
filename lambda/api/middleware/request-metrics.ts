import type { RequestOutcome } from '../../observability/metrics';
import type { RequestState } from '../request-state';
import type { ApiEvent } from '../types';

/** What an API adds to a request's metrics, from its answer and what its steps noted. */
export type CountsOf = (request: { event: ApiEvent; status: number; state: RequestState }) => Pick<RequestOutcome, 'upsert' | 'counts'>;

/** The contacts API: a POST answered 201 created a contact, 200 updated one. */
export const upsertCounts: CountsOf = ({ event, status }) =>
  event.httpMethod === 'POST' && (status === 200 || status === 201) ? { upsert: status === 201 ? 'created' : 'updated' } : {};

/** What the request's checks and operation noted in its state's `counts` (the ingest API). */
export const notedCounts: CountsOf = ({ state }) => (state.counts ? { counts: state.counts } : {});

/**
 * What a request's metrics count (written by request-record.ts, as EMF; see
 * RequestMetrics for the document): the totals the alarms divide, what the
 * API counts (`countsOf`: contacts created vs updated; events accepted…),
 * DynamoDB calls and the latency of each, and `Requests` by route and
 * status class.
 */
export function requestOutcome(
  request: { event: ApiEvent; state: RequestState; route: string; status: number },
  countsOf: CountsOf,
): RequestOutcome {
  const { state, status } = request;
  const outcome: RequestOutcome = { route: request.route, status };
  const counted = countsOf(request);
  if (counted.upsert) outcome.upsert = counted.upsert;
  if (counted.counts) outcome.counts = counted.counts;
  outcome.dynamo = state.calls;
  return outcome;
}
