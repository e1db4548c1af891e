import type { CallLog } from '../domain/ports';
import { InvalidReportError } from './errors';
import { MAX_EVENTS_PER_REQUEST } from './limits';
import { eventSchema, isObject, problemsOf, type IngestEvent } from './payloads';
import type { ReceiptFields, ReportStore, StoredEvent } from './ports';

/** The answer to `POST /ingest/v1/events` (202). */
export interface EventsReceipt {
  accepted: number;
  duplicates: number;
  rejected: { index: number; error: string }[];
}

/** What the server adds to every event of one request: the write token is made per event from it. */
export type RequestReceipt = Omit<ReceiptFields, 'writeToken'> & { requestToken: string };

const EXAMPLE = '{"events": [{"eventId": "<uuid>", "message": "…"}]}';

/** The `events` array of a body, or the problem with the envelope (422). */
function eventsOf(body: unknown): unknown[] {
  if (!isObject(body)) throw new InvalidReportError(`Request body must be a JSON object, like ${EXAMPLE}`);
  const { events } = body;
  if (events === undefined || events === null) throw new InvalidReportError(`events is required: send ${EXAMPLE}`);
  if (!Array.isArray(events)) throw new InvalidReportError(`events must be an array, like ${EXAMPLE}`);
  if (events.length === 0) throw new InvalidReportError('events is empty: send 1 to 20 events');
  if (events.length > MAX_EVENTS_PER_REQUEST) {
    throw new InvalidReportError(`events has ${events.length} entries: at most ${MAX_EVENTS_PER_REQUEST} per request (send the rest in another)`);
  }
  return events;
}

/** An event as stored: the validated fields and what the server adds. */
export function storedEvent(event: IngestEvent, receipt: RequestReceipt, index: number): StoredEvent {
  const { requestToken, ...fields } = receipt;
  // Per event: two events of one request with the same eventId are a duplicate of each other, not one retried write.
  return { ...fields, ...event, writeToken: `${requestToken}#${index}` };
}

/**
 * `POST /ingest/v1/events` (docs/ingest-api.md): each event is validated on
 * its own; the valid ones are written, each with one conditional write, all
 * in parallel, and counted as accepted (stored now) or duplicates (the
 * factory already has that eventId); the invalid ones are listed with their
 * index. A body without a valid event is refused whole (InvalidReportError).
 * A failed write rejects the whole call (the API's 503): every write that
 * succeeded is idempotent, so the same request may be sent again.
 */
export async function receiveEvents(store: ReportStore, body: unknown, receipt: RequestReceipt, log?: CallLog): Promise<EventsReceipt> {
  const events = eventsOf(body);
  const rejected: EventsReceipt['rejected'] = [];
  const valid: StoredEvent[] = [];
  events.forEach((raw, index) => {
    const parsed = eventSchema.safeParse(raw);
    if (parsed.success) valid.push(storedEvent(parsed.data, receipt, index));
    else rejected.push({ index, error: problemsOf(parsed.error) });
  });
  if (valid.length === 0) {
    const reasons = rejected.map(({ index, error }) => `events[${index}]: ${error}`).join('; ');
    throw new InvalidReportError(`no valid event in this request: ${reasons}`, rejected.length);
  }
  // Every write runs to its end before the answer: none is left in flight.
  const outcomes = await Promise.allSettled(valid.map((event) => store.putEvent(event, log)));
  const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  const stored = outcomes.filter((outcome) => outcome.status === 'fulfilled' && outcome.value === 'stored').length;
  return { accepted: stored, duplicates: valid.length - stored, rejected };
}
