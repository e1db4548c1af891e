import type { Reading } from '../../kernel/reading';
import { ownSessionReport, readOwnSession, SESSION_EXAMPLE } from '../sessions/own-session';
import type { SessionReport, SessionUpdate } from '../sessions/session-reports';
import type { BodyReader, Operation } from '../../infrastructure/http/pipeline';
import { apiError, json } from '../../infrastructure/http/responses';
import { parseJsonBody } from '../../infrastructure/http/steps/json-body';
import type { ApiEvent } from '../../infrastructure/http/types';
import type { IngestSlot } from './ingest-slot';

/**
 * POST /ingest/v1/sessions (docs/ingest-api.md#a-session): the own SDK's
 * page-load session. Its update rides the per-address limiter's write as a
 * Sentry session does (ingestAccess's `sessions`, ../sessions/session-carry.ts),
 * so the route itself writes nothing: once the checks passed, the session is
 * recorded. The body is read once per request, for the access check (which
 * needs it before the body's own turn) and for the 400 and 422 answers.
 */

/** Each request's body as read: the parse and the reading are kept, a refusal too, so the check and the reader share one parse. */
const readings = new WeakMap<ApiEvent, { reading: Reading<SessionUpdate> } | { refusal: unknown }>();

function sessionReadingOf(event: ApiEvent): Reading<SessionUpdate> {
  let read = readings.get(event);
  if (!read) {
    try {
      read = { reading: readOwnSession(parseJsonBody(event, SESSION_EXAMPLE)) };
    } catch (refusal) {
      read = { refusal };
    }
    readings.set(event, read);
  }
  if ('refusal' in read) throw read.refusal;
  return read.reading;
}

/** The session a request carries, its user the visitor, for the access check's limiter write; none when the body is not JSON or not a valid session (answered 400 or 422 after the checks). */
export function sessionReportOf(event: ApiEvent, visitor: string | undefined): SessionReport | undefined {
  try {
    const reading = sessionReadingOf(event);
    return reading.ok ? ownSessionReport(reading.value, visitor) : undefined;
  } catch {
    return undefined;
  }
}

/** The route's body: 400 when not JSON, 422 listing every problem of the session. */
export const sessionBody: BodyReader<SessionUpdate> = {
  read: (event) => {
    const reading = sessionReadingOf(event);
    if (!reading.ok) throw apiError(422, reading.problems.join('; '));
    return reading.value;
  },
};

/** 202 once the checks passed: the limiter's write recorded the session (or, past a visitor's cap, dropped and counted it, as Sentry's). */
export function receiveSessionOperation(): Operation<SessionUpdate, IngestSlot> {
  return () => Promise.resolve(json(202, { accepted: true }));
}
