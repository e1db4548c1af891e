import type { CallLog } from '../domain/ports';
import { InvalidReportError } from './errors';
import { groupEvent, issueIdOf } from './fingerprint';
import type { EventToStore } from './issues';
import { MAX_EVENTS_PER_REQUEST } from './limits';
import { isObject, readEvent, type IngestEvent } from './payloads';
import type { ReceiptFields, ReportStore, StoredEvent } from './ports';

/** The answer to `POST /ingest/v1/events` (202). */
export interface EventsReceipt {
  accepted: number;
  duplicates: number;
  rejected: { index: number; error: string }[];
}

/** The receipt and, for the log line and metrics only, how many of the accepted were filtered. */
export type EventsOutcome = EventsReceipt & { filtered: number };

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

/** The event with the issue it belongs to (fingerprint.ts), or the reason it belongs to none. */
export function withGrouping(event: StoredEvent): EventToStore {
  const grouping = groupEvent(event);
  if (!grouping.grouped) return { event: { ...event, filtered: grouping.filtered }, filtered: grouping.filtered };
  const issueId = issueIdOf(event.factoryId, grouping.fingerprint);
  return { event: { ...event, issueId }, issue: { issueId, fingerprint: grouping.fingerprint, title: grouping.title } };
}

/**
 * `POST /ingest/v1/events` (docs/ingest-api.md): each event is validated on
 * its own and grouped into its issue (docs/report-issues.md); the valid ones
 * are written with their issues' counts in one store call, and counted as
 * accepted (stored now, filtered ones included) or duplicates (the factory
 * already has that eventId); the invalid ones are listed with their index.
 * A body without a valid event is refused whole (InvalidReportError). A
 * failed write rejects the whole call (the API's 503): the store writes all
 * or nothing and never counts a duplicate, so the same request may be sent again.
 */
export async function receiveEvents(store: ReportStore, body: unknown, receipt: RequestReceipt, log?: CallLog): Promise<EventsOutcome> {
  const events = eventsOf(body);
  const rejected: EventsReceipt['rejected'] = [];
  const valid: StoredEvent[] = [];
  events.forEach((raw, index) => {
    const reading = readEvent(raw);
    if (reading.ok) valid.push(storedEvent(reading.value, receipt, index));
    else rejected.push({ index, error: reading.problems.join('; ') });
  });
  if (valid.length === 0) {
    const reasons = rejected.map(({ index, error }) => `events[${index}]: ${error}`).join('; ');
    throw new InvalidReportError(`no valid event in this request: ${reasons}`, rejected.length);
  }
  const grouped = valid.map(withGrouping);
  const outcomes = await store.putEvents(grouped, log);
  const stored = outcomes.filter((outcome) => outcome === 'stored').length;
  const filtered = grouped.filter((item, index) => 'filtered' in item && outcomes[index] === 'stored').length;
  return { accepted: stored, duplicates: valid.length - stored, rejected, filtered };
}
