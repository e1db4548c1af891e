import { InvalidReportError } from '../../ingest/errors';
import type { ReportStore } from '../../ingest/ports';
import { receiveEvents } from '../../ingest/receive-events';
import { METRIC } from '../../observability/names';
import { apiError, json } from '../responses';
import type { Operation } from '../pipeline';
import { receiptOf } from './ingest-receipt';

/**
 * POST /ingest/v1/events, once the route's steps have checked the content
 * type, the size, the key, the origin and the limits, and parsed the JSON:
 * 202 `{accepted, duplicates, rejected}`, or 422 when no event is valid.
 */
export function receiveEventsOperation(deps: { reports: ReportStore; retentionDays: number; now?: () => number }): Operation<unknown> {
  const now = deps.now ?? Date.now;
  return async ({ body, state }) => {
    try {
      const { filtered, ...receipt } = await receiveEvents(deps.reports, body, receiptOf(state, now(), deps.retentionDays), state.calls);
      state.counts = {
        ...state.counts,
        [METRIC.eventsAccepted]: receipt.accepted,
        [METRIC.eventsDuplicate]: receipt.duplicates,
        [METRIC.eventsRejected]: receipt.rejected.length,
        [METRIC.eventsFiltered]: filtered,
      };
      state.logFields = { ...state.logFields, accepted: receipt.accepted, duplicates: receipt.duplicates, rejected: receipt.rejected.length, filtered };
      return json(202, receipt);
    } catch (error) {
      if (!(error instanceof InvalidReportError)) throw error;
      state.counts = { ...state.counts, [METRIC.eventsRejected]: error.rejectedEvents };
      throw apiError(422, error.message);
    }
  };
}
