import { KeyRevokedError, LimitedError } from '../errors';
import { storedEvent, storeEvents, type ReceiveDependencies } from '../receive-events';
import { sentryProjectId } from '../sentry/dsn';
import { eventUuidOf } from '../sentry/event-map';
import { readSentryEvent } from '../sentry/sentry-event';
import type { StoredEvent } from '../issues/stored-event';
import { METRIC } from '../../infrastructure/observability/names';
import type { Check, Operation } from '../../infrastructure/http/pipeline';
import { note } from '../../infrastructure/http/request-state';
import { apiError, json } from '../../infrastructure/http/responses';
import { CHALLENGE, REVOKED_INGEST_KEY } from './ingest-access';
import type { IngestSlot } from './ingest-slot';
import { receiptOf } from './ingest-receipt';
import { limited, senderOf } from './receive-events';
import { sentryRequestOf } from './sentry-body';
import { scrubbedLogField, scrubbedMetrics } from './scrubbed-metrics';

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
 * POST /ingest/sentry/api/{projectId}/envelope/ and …/store/, once the body
 * is framed (sentryBody), the key, origin and per-address limits checked
 * (ingestAccess) and the project matched: each event is read as an own
 * event (sentry-event.ts: mapped, scrubbed, clipped), then goes the own
 * events' way (storeEvents: grouping, per-issue and key limits, the store,
 * dedupe by event id). Other items are dropped and counted per type. 200
 * `{"id"}` (the first event's id, as Sentry writes it); 422 when an event is
 * invalid (none is stored); 429 with Retry-After (and X-Sentry-Rate-Limits: sentry-answers.ts).
 */
export function receiveSentryOperation(deps: ReceiveDependencies & { retentionDays: number; now?: () => number }): Operation<undefined, IngestSlot> {
  const now = deps.now ?? Date.now;
  return async ({ state }) => {
    const request = sentryRequestOf(state);
    const droppedCounts = Object.fromEntries(Object.entries(request.dropped).map(([type, count]) => [droppedMetric(type), count]));
    note(state, { sentryEvents: request.events.length }, droppedCounts);
    const headerId = eventUuidOf(request.header.event_id);
    const at = now();
    const receipt = receiptOf(state, at, deps.retentionDays);
    const valid: StoredEvent[] = [];
    for (const [index, raw] of request.events.entries()) {
      const reading = readSentryEvent(raw, request.events.length === 1 ? request.header.event_id : undefined);
      if (!reading.ok) {
        note(state, {}, { [METRIC.eventsRejected]: request.events.length });
        throw apiError(422, `event ${index + 1}: ${reading.problems.join('; ')}`);
      }
      valid.push(storedEvent(reading.value, receipt, index));
    }
    const firstId = valid[0]?.eventId ?? headerId;
    const answer = { id: firstId === undefined ? null : firstId.replace(/-/g, '') };
    if (valid.length === 0) return json(200, answer);
    try {
      const { filtered, scrubbed, accepted, duplicates } = await storeEvents(deps, valid, [], senderOf(state), at);
      const replaced = Object.keys(scrubbed).length > 0;
      note(
        state,
        { accepted, duplicates, filtered, ...(replaced ? { scrubbed: scrubbedLogField(scrubbed) } : {}) },
        {
          [METRIC.eventsAccepted]: accepted,
          [METRIC.eventsDuplicate]: duplicates,
          [METRIC.eventsFiltered]: filtered,
          ...scrubbedMetrics(scrubbed),
        },
      );
      return json(200, answer);
    } catch (error) {
      if (error instanceof LimitedError) throw limited(state, error);
      if (error instanceof KeyRevokedError) throw apiError(401, REVOKED_INGEST_KEY, CHALLENGE);
      throw error;
    }
  };
}
