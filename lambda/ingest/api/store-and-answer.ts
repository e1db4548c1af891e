import { InvalidReportError, KeyRevokedError, LimitedError } from '../errors';
import { storeEvents, type EventsOutcome, type ReadEvents, type ReceiveDependencies, type RequestReceipt } from '../receive-events';
import { METRIC } from '../../infrastructure/observability/names';
import type { Operation } from '../../infrastructure/http/pipeline';
import { note, type RequestState } from '../../infrastructure/http/request-state';
import { apiError } from '../../infrastructure/http/responses';
import type { ApiResult } from '../../infrastructure/http/types';
import { CHALLENGE, REVOKED_INGEST_KEY } from './ingest-access';
import { receiptOf } from './ingest-receipt';
import type { IngestSlot } from './ingest-slot';
import { scrubbedLogField, scrubbedMetrics } from './scrubbed-metrics';

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
 * What one protocol of the ingest adds to the one store path: how its
 * request becomes events, and how the outcome becomes its answer.
 */
export interface IngestProtocol<Body> {
  /**
   * The request's events, read, cleaned and scrubbed, with what the server
   * adds (`receipt`); throws InvalidReportError to refuse the request whole (422).
   */
  read(body: Body, receipt: RequestReceipt, state: RequestState<IngestSlot>): ReadEvents;
  /** Whether its answer lists the events it refused one by one (the own API), so the log line and metrics count them. */
  listsRejected: boolean;
  /** Its answer once the valid events are stored (or were already). */
  answer(outcome: EventsOutcome, events: ReadEvents, body: Body): ApiResult;
}

/** What storing nothing gives: a request whose only items the protocol drops (a Sentry envelope of sessions). */
const NOTHING_STORED: EventsOutcome = { accepted: 0, duplicates: 0, rejected: [], filtered: 0, scrubbed: {} };

/** The request's log fields and metrics for what was stored (counts and rule names, never a value). */
function noteOutcome(state: RequestState, outcome: EventsOutcome, listsRejected: boolean): void {
  const { accepted, duplicates, rejected, filtered, scrubbed } = outcome;
  const replaced = Object.keys(scrubbed).length > 0;
  note(
    state,
    { accepted, duplicates, ...(listsRejected ? { rejected: rejected.length } : {}), filtered, ...(replaced ? { scrubbed: scrubbedLogField(scrubbed) } : {}) },
    {
      [METRIC.eventsAccepted]: accepted,
      [METRIC.eventsDuplicate]: duplicates,
      ...(listsRejected ? { [METRIC.eventsRejected]: rejected.length } : {}),
      [METRIC.eventsFiltered]: filtered,
      ...scrubbedMetrics(scrubbed),
    },
  );
}

/**
 * The one way every protocol's events are stored and answered, once the
 * route's checks passed (key, origin, per-address limits): the protocol
 * reads its request into events, which go the one store path (storeEvents:
 * resolved, grouped, the per-issue and key limits, the store, dedupe by
 * event id); the outcome is noted for the log line and metrics, then
 * answered in the protocol's words. The refusals are the same for all: 422
 * for a request without a valid event, 429 with Retry-After when a limit
 * refused (some events may be stored: a retry is safe), 401 when the key
 * was revoked under way.
 */
export function storeAndAnswer<Body>(
  deps: ReceiveDependencies & { retentionDays: number; now?: () => number },
  protocol: IngestProtocol<Body>,
): Operation<Body, IngestSlot> {
  const now = deps.now ?? Date.now;
  return async ({ body, state }) => {
    try {
      const at = now();
      const events = protocol.read(body, receiptOf(state, at, deps.retentionDays), state);
      if (events.valid.length === 0) return protocol.answer(NOTHING_STORED, events, body);
      const outcome = await storeEvents(deps, events.valid, events.rejected, senderOf(state), at);
      noteOutcome(state, outcome, protocol.listsRejected);
      return protocol.answer(outcome, events, body);
    } catch (error) {
      if (error instanceof LimitedError) throw limited(state, error);
      if (error instanceof KeyRevokedError) throw apiError(401, REVOKED_INGEST_KEY, CHALLENGE);
      if (!(error instanceof InvalidReportError)) throw error;
      note(state, {}, { [METRIC.eventsRejected]: error.rejectedEvents });
      throw apiError(422, error.message);
    }
  };
}
