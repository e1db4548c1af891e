import { InvalidReportError } from '../errors';
import { storedEvent, type ReadEvents, type ReceiveDependencies, type RequestReceipt } from '../receive-events';
import { sentryProjectId } from '../sentry/dsn';
import { eventUuidOf } from '../sentry/event-map';
import { readSentryEvent } from '../sentry/sentry-event';
import type { SentryRequest } from '../sentry/sentry-request';
import { METRIC } from '../../infrastructure/observability/names';
import type { Check, Operation } from '../../infrastructure/http/pipeline';
import { note, type RequestState } from '../../infrastructure/http/request-state';
import { apiError, json } from '../../infrastructure/http/responses';
import { CHALLENGE } from './ingest-access';
import type { IngestSlot } from './ingest-slot';
import { receiptOf } from './ingest-receipt';
import { storeSentryFeedback } from './receive-feedback';
import { senderOf, storeAndAnswer } from './store-and-answer';
import type { FeedbackStore } from '../ports';

/** The metric counting a dropped item type (`SentryItemsDropped_session`…): the names are bounded (sentry-request.ts). */
const droppedMetric = (type: string) => `${METRIC.sentryItemsDropped}_${type}`;

/** The DSN's project id (the path's) must be the key's: a DSN with another key's project is refused like a wrong key. */
export function sentryProjectMatches(): Check<IngestSlot> {
  return (event, state) => {
    const { key } = senderOf(state);
    const expected = key.sentryProjectId ?? sentryProjectId(key.keyId);
    if (event.pathParameters?.projectId !== expected) {
      throw apiError(401, "The DSN's project id does not belong to its key: use the dsn printed by keys create, copied whole.", CHALLENGE);
    }
  };
}

/**
 * A Sentry request's events as own events (sentry-event.ts: mapped,
 * scrubbed, clipped, each read as an own event is); one invalid event
 * refuses the request whole (422), as Sentry's own ingest does. Its other
 * items are dropped and counted per type.
 */
function readSentryEvents(request: SentryRequest, receipt: RequestReceipt, state: RequestState): ReadEvents {
  const droppedCounts = Object.fromEntries(Object.entries(request.dropped).map(([type, count]) => [droppedMetric(type), count]));
  note(state, { sentryEvents: request.events.length }, droppedCounts);
  const valid = request.events.map((raw, index) => {
    const reading = readSentryEvent(raw, request.events.length === 1 ? request.header.event_id : undefined);
    if (!reading.ok) throw new InvalidReportError(`event ${index + 1}: ${reading.problems.join('; ')}`, request.events.length);
    return storedEvent(reading.value, receipt, index);
  });
  return { valid, rejected: [] };
}

/**
 * POST /ingest/sentry/api/{projectId}/envelope/ and …/store/, once the body
 * is framed (sentryBody, read before the checks), the key, origin and
 * per-address limits checked (ingestAccess) and the project matched: its
 * events go the one store path (storeAndAnswer). 200 `{"id"}` (the first
 * event's id, as Sentry writes it); 422 when an event is invalid (none is
 * stored); 429 with Retry-After (and X-Sentry-Rate-Limits: sentry-answers.ts).
 * Its feedback is stored after its events (receive-feedback.ts), only when
 * they were: an envelope refused is refused whole.
 */
export function receiveSentryOperation(
  deps: ReceiveDependencies & { retentionDays: number; now?: () => number; feedback?: FeedbackStore },
): Operation<SentryRequest, IngestSlot> {
  const now = deps.now ?? Date.now;
  const events = storeAndAnswer(deps, {
    read: readSentryEvents,
    listsRejected: false,
    answer: (_outcome, { valid }, request) => {
      const firstId = valid[0]?.eventId ?? eventUuidOf(request.header.event_id);
      return json(200, { id: firstId === undefined ? null : firstId.replace(/-/g, '') });
    },
  });
  return async (input) => {
    const answer = await events(input);
    await storeSentryFeedback(deps.feedback, input.body, receiptOf(input.state, now(), deps.retentionDays), input.state);
    return answer;
  };
}
