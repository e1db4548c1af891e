import { InvalidReportError, KeyRevokedError, LimitedError } from '../errors';
import { receiveEvents, type ReceiveDependencies } from '../receive-events';
import { METRIC } from '../../infrastructure/observability/names';
import { scrubbedLogField, scrubbedMetrics } from './scrubbed-metrics';
import { apiError, json } from '../../infrastructure/http/responses';
import type { Operation } from '../../infrastructure/http/pipeline';
import { note, type RequestState } from '../../infrastructure/http/request-state';
import { CHALLENGE, REVOKED_INGEST_KEY } from './ingest-access';
import { receiptOf } from './ingest-receipt';
import type { IngestSlot } from './ingest-slot';

/** The key checked by ingestAccess; routes only run after it. */
export function senderOf(state: RequestState<IngestSlot>): NonNullable<IngestSlot['sender']> {
  if (!state.slot.sender) throw new Error('ingest route reached without a checked key');
  return state.slot.sender;
}

/** A refusal by the key's or an issue's limit: 429 with Retry-After, what was stored before it in the log line. */
export function limited(state: RequestState, error: LimitedError) {
  note(
    state,
    { limitedBy: error.limit, ...(error.stored > 0 ? { accepted: error.stored } : {}) },
    error.stored > 0 ? { [METRIC.eventsAccepted]: error.stored } : undefined,
  );
  return apiError(429, error.message, { 'Retry-After': String(error.retryAfterSeconds) });
}

/**
 * POST /ingest/v1/events, once the route's steps have checked the content
 * type, the size, the key, the origin and the per-address limits, and parsed
 * the JSON: 202 `{accepted, duplicates, rejected}`, 422 when no event is
 * valid, 429 when a limit refused (some events may be stored: a retry is safe).
 */
export function receiveEventsOperation(deps: ReceiveDependencies & { retentionDays: number; now?: () => number }): Operation<unknown, IngestSlot> {
  const now = deps.now ?? Date.now;
  return async ({ body, state }) => {
    try {
      const at = now();
      const { filtered, scrubbed, ...receipt } = await receiveEvents(deps, body, receiptOf(state, at, deps.retentionDays), senderOf(state), at);
      const replaced = Object.keys(scrubbed).length > 0;
      note(
        state,
        {
          accepted: receipt.accepted,
          duplicates: receipt.duplicates,
          rejected: receipt.rejected.length,
          filtered,
          ...(replaced ? { scrubbed: scrubbedLogField(scrubbed) } : {}),
        },
        {
          [METRIC.eventsAccepted]: receipt.accepted,
          [METRIC.eventsDuplicate]: receipt.duplicates,
          [METRIC.eventsRejected]: receipt.rejected.length,
          [METRIC.eventsFiltered]: filtered,
          ...scrubbedMetrics(scrubbed),
        },
      );
      return json(202, receipt);
    } catch (error) {
      if (error instanceof LimitedError) throw limited(state, error);
      if (error instanceof KeyRevokedError) throw apiError(401, REVOKED_INGEST_KEY, CHALLENGE);
      if (!(error instanceof InvalidReportError)) throw error;
      note(state, {}, { [METRIC.eventsRejected]: error.rejectedEvents });
      throw apiError(422, error.message);
    }
  };
}
