import type { ReceiptFields, StoredEvent } from './issues/stored-event';
import { InvalidReportError, KeyRevokedError, LimitedError } from './errors';
import { analyseGrouping, issueIdOf } from './grouping/fingerprint';
import { MAX_EVENTS_PER_REQUEST } from './limits';
import type { IngestEvent } from './issues/stored-event';
import { isObject, readEvent } from './payloads';
import type { Admission, FrameResolver, IngestKeyAuthorizer, IssueLimiter, PublishableKey, ReportStore } from './ports';
import type { ScrubCounts } from './scrub/rule';

/** The answer to `POST /ingest/v1/events` (202). */
export interface EventsReceipt {
  accepted: number;
  duplicates: number;
  rejected: { index: number; error: string }[];
}

/** The receipt and, for the log line and metrics only, how many of the accepted were filtered, and what the scrubber replaced in them. */
export type EventsOutcome = EventsReceipt & { filtered: number; scrubbed: ScrubCounts };

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
 * The event with the issue it belongs to, or the reason it belongs to none (fingerprint.ts): the issue its first
 * grouping candidate names (its resolved frames when a map resolved them). The tally counts it into the issue that
 * candidate is tied to, and records this id as an alias of that issue when they differ (docs/report-issues.md#issue-ids).
 */
export function withGrouping(event: StoredEvent): StoredEvent {
  const { grouping, current } = analyseGrouping(event);
  if (!grouping.grouped) return { ...event, filtered: grouping.filtered };
  return { ...event, issueId: issueIdOf(event.factoryId, current[0] ?? grouping.fingerprint) };
}

/**
 * The issue limit an event takes (docs/capacity.md#fair-shares-per-issue-and-per-key): its bug's, named by its
 * first grouping candidate (its resolved frames when a map resolved them, withGrouping's id), so that one bug thrown
 * by builds whose minifier named things differently takes one limit, as it is counted in one issue.
 */
export const issueLimitIdOf = (event: StoredEvent): string | undefined => event.issueId;

/**
 * Frames resolved through the factory's source maps (lambda/ingest/sourcemaps,
 * docs/source-maps.md#resolving): after scrubbing (a map never sees a secret
 * the page sent, and a resolved frame is never scrubbed into a marker),
 * before grouping (an issue groups on the resolved frames). Per request: its
 * events' maps are read side by side within the request's budget; a missing,
 * slow, broken or oversized map never fails an event (its frames stay
 * minified, each with why). Without a map store, frames stay as sent.
 */
export const resolveFrames = (deps: Pick<ReceiveDependencies, 'frames'>, events: StoredEvent[]): Promise<StoredEvent[]> =>
  deps.frames ? deps.frames.resolve(events) : Promise.resolve(events);

/**
 * Each valid event's way to the limits and the store, in this order:
 *   1. scrub: done as it is read (payloads.ts, scrub/): secrets become
 *      markers in every free-text field before any text is clipped, grouped,
 *      logged or stored, so a token in a message never splits an issue;
 *   2. resolve: resolveFrames, above;
 *   3. group: withGrouping, on the scrubbed (and resolved) text.
 */
export const prepareEvents = async (deps: Pick<ReceiveDependencies, 'frames'>, events: StoredEvent[]): Promise<StoredEvent[]> =>
  (await resolveFrames(deps, events)).map(withGrouping);

/** What the scrubber replaced in the events stored now, per rule. */
function scrubbedIn(events: readonly StoredEvent[], outcomes: readonly string[]): ScrubCounts {
  const total: ScrubCounts = {};
  events.forEach((event, index) => {
    if (outcomes[index] !== 'stored' || !event.scrubbed) return;
    for (const [rule, count] of Object.entries(event.scrubbed) as [keyof ScrubCounts, number][]) total[rule] = (total[rule] ?? 0) + count;
  });
  return total;
}

/** What receiving events needs: the store, the per-issue limits and the key's limit. */
export interface ReceiveDependencies {
  reports: ReportStore;
  issueLimits: IssueLimiter;
  keys: Pick<IngestKeyAuthorizer, 'admitRequest'>;
  /** Source maps to resolve frames with (docs/source-maps.md); without, frames stay as sent. */
  frames?: FrameResolver;
}

/** The key a request came with (checked: active, its origin allowed). */
export interface Sender {
  key: PublishableKey;
  keyHash: string;
  /** The key's request was taken already (a request carrying sessions: before the write that records them). */
  keyCounted?: boolean;
}

/**
 * The limits, in the order that keeps a storm of one error from starving the
 * others (docs/ingest-api.md#limits): each issue the request carries events
 * of takes one request of its own limit (half the key's); events of an issue
 * over it are held back. Only a request with something left to store is
 * counted against the key's limit, so the refused part of a storm never
 * spends the budget of the factory's other issues. Answers the events to
 * store, and the wait before the held-back ones may be sent again.
 */
async function admit(deps: ReceiveDependencies, events: StoredEvent[], sender: Sender, nowMs: number) {
  const limitIds = events.map(issueLimitIdOf);
  const issueIds = [...new Set(limitIds.flatMap((id) => (id === undefined ? [] : [id])))];
  const byIssue = issueIds.length === 0 ? new Map<string, Admission>() : await deps.issueLimits.admit(sender.key, issueIds, nowMs);
  let retryAfterSeconds = 0;
  const admitted = events.filter((_event, index) => {
    const limitId = limitIds[index];
    const decision = limitId === undefined ? undefined : byIssue.get(limitId);
    if (!decision || decision.admitted) return true;
    retryAfterSeconds = Math.max(retryAfterSeconds, decision.retryAfterSeconds);
    return false;
  });
  const heldBack = events.length - admitted.length;
  if (admitted.length === 0) {
    throw new LimitedError(
      `This error is being reported more often than its limit (half of this key's ${sender.key.rateLimit} requests per minute): retry after ${retryAfterSeconds} s.`,
      'issue',
      retryAfterSeconds,
    );
  }
  // A request carrying sessions took the key's request before the write that recorded them (ingest-access.ts).
  if (!sender.keyCounted) await admitKey(deps.keys, sender, nowMs);
  return { admitted, heldBack, retryAfterSeconds };
}

/** One request of the key's per-minute limit: throws LimitedError (429) when refused, KeyRevokedError (401) when the key was revoked under way. */
export async function admitKey(keys: Pick<IngestKeyAuthorizer, 'admitRequest'>, sender: Sender, nowMs: number): Promise<void> {
  const key = await keys.admitRequest(sender.key, sender.keyHash, nowMs);
  if ('revoked' in key) throw new KeyRevokedError('This API key has been revoked: ask your platform team for a new one.');
  if (!key.admitted) {
    throw new LimitedError(
      `Rate limit of ${sender.key.rateLimit} requests per minute exceeded for this key: retry after ${key.retryAfterSeconds} s.`,
      'key',
      key.retryAfterSeconds,
    );
  }
}

/** A request's events once read: the valid ones as they will be stored, and the invalid ones with their index and why. */
export interface ReadEvents {
  valid: StoredEvent[];
  rejected: EventsReceipt['rejected'];
}

/**
 * The events of a `POST /ingest/v1/events` body (docs/ingest-api.md), each
 * validated on its own (read, cleaned and scrubbed: step 1 of
 * prepareEvents' order): the valid ones with what the server adds, the
 * invalid ones listed with their index. A body without a valid event is
 * refused whole (InvalidReportError).
 */
export function readEvents(body: unknown, receipt: RequestReceipt): ReadEvents {
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
  return { valid, rejected };
}

/**
 * `POST /ingest/v1/events` (docs/ingest-api.md): the body's events read
 * (readEvents), grouped into their issues (docs/report-issues.md); the
 * limits decide which may be stored (admit, above); those are written, each
 * on its own, and counted as accepted (stored now, filtered ones included)
 * or duplicates (the factory already has that eventId); the invalid ones
 * are listed with their index. A failed write, or events held back by an
 * issue's limit, refuse the call (503, 429) after the others were stored:
 * the same request may be sent again, the stored ones then count as
 * duplicates. The tally counts stored events into their issues
 * (docs/report-issues.md#exact-counts).
 */
export async function receiveEvents(deps: ReceiveDependencies, body: unknown, receipt: RequestReceipt, sender: Sender, nowMs: number): Promise<EventsOutcome> {
  const { valid, rejected } = readEvents(body, receipt);
  return storeEvents(deps, valid, rejected, sender, nowMs);
}

/**
 * Events already read (by receiveEvents, or by the Sentry protocol's reader:
 * sentry/) on their way through prepareEvents (scrubbed when read, then resolved and grouped), the limits and the store, as
 * receiveEvents describes; `rejected` is passed through to the receipt.
 */
export async function storeEvents(
  deps: ReceiveDependencies,
  valid: StoredEvent[],
  rejected: EventsReceipt['rejected'],
  sender: Sender,
  nowMs: number,
): Promise<EventsOutcome> {
  const { admitted, heldBack, retryAfterSeconds } = await admit(deps, await prepareEvents(deps, valid), sender, nowMs);
  const { outcomes, failure } = await deps.reports.putEvents(admitted);
  if (failure !== undefined) throw failure;
  const stored = outcomes.filter((outcome) => outcome === 'stored').length;
  if (heldBack > 0) {
    throw new LimitedError(
      `${heldBack} of these events belong to an error reported more often than its limit (half of this key's ${sender.key.rateLimit} requests per minute); the other ${admitted.length} were stored: send the same request again after ${retryAfterSeconds} s (stored events count as duplicates).`,
      'issue',
      retryAfterSeconds,
      stored,
    );
  }
  const filtered = admitted.filter((event, index) => event.filtered !== undefined && outcomes[index] === 'stored').length;
  return { accepted: stored, duplicates: admitted.length - stored, rejected, filtered, scrubbed: scrubbedIn(admitted, outcomes) };
}
