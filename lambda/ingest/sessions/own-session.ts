import { cleanText } from '../../kernel/free-text';
import type { Reading } from '../../kernel/reading';
import { scrubText } from '../scrub/scrubber';
import { RELEASE_MAX } from './release-name';
import { DEFAULT_ENVIRONMENT, ENVIRONMENT_MAX, type SessionReport, type SessionUpdate } from './session-reports';

/**
 * The body of `POST /ingest/v1/sessions` (docs/ingest-api.md#a-session): the
 * own SDK's page-load session, one update of it, as the same SessionUpdate a
 * Sentry `session` item becomes, so it is recorded and counted the same way
 * (./session-carry.ts). Unlike an envelope's session item, which is dropped
 * and counted when it cannot be read, this body is the request's only
 * content: every problem is listed (422). Unknown fields are ignored; only
 * the fields named here are read, so a field called `__proto__` is nothing.
 */

/** The statuses the own SDK sends: `ok` while the page lives, `errored` once it captured an error, `crashed` once it had an unhandled one; `exited` for a sender that ends its sessions. */
export const OWN_SESSION_STATUSES = ['ok', 'errored', 'crashed', 'exited'] as const;
/** The most errors one update may say: a count, not a sender's free number. */
export const SESSION_ERRORS_MAX = 1_000_000;
/** A body at most this long: an update is about 250 bytes. */
export const SESSION_BODY_LIMIT_BYTES = 2048;
export const SESSION_EXAMPLE =
  '{"session": {"sid": "<uuid>", "init": true, "started": "2026-12-06T12:00:00Z", "status": "ok", "errors": 0, "release": "web@1.4.2"}}';

/** A UUID (any version, either case): the session id the SDK makes with crypto.randomUUID() or its fallback. */
const SID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** An ISO 8601 date and time with a zone, as Date.prototype.toISOString writes it (fixed length: no backtracking to speak of). */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;
const TIME_MAX = 40;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const omitted = (value: unknown): value is null | undefined => value === undefined || value === null;
const shown = (value: unknown): string => {
  const text = typeof value === 'string' ? value : String(JSON.stringify(value));
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
};

/** A release or environment: one line, controls out, scrubbed, clipped; a problem when not text or blank (and required). */
function label(value: unknown, field: string, max: number, required: boolean, problems: string[]): string | undefined {
  if (omitted(value)) {
    if (required) problems.push(`${field} is required (the release the page runs, like "web@1.4.2")`);
    return undefined;
  }
  if (typeof value !== 'string') {
    problems.push(`${field} must be a string`);
    return undefined;
  }
  const checked = cleanText(value, { field, lines: 'single-line', max, scrub: (text) => scrubText(text, {}) });
  if (!checked.ok) {
    problems.push(checked.problem);
    return undefined;
  }
  if (checked.text === '' && required) problems.push(`${field} must not be blank`);
  return checked.text === '' ? undefined : checked.text;
}

/** The `session` object of the body as an update, or every problem of it in field order. */
export function readOwnSession(raw: unknown): Reading<SessionUpdate> {
  if (!isObject(raw)) return { ok: false, problems: [`Request body must be a JSON object, like ${SESSION_EXAMPLE}`] };
  const session = raw.session;
  if (omitted(session)) return { ok: false, problems: [`session is required: send ${SESSION_EXAMPLE}`] };
  if (!isObject(session)) return { ok: false, problems: [`session must be an object, like ${SESSION_EXAMPLE}`] };
  const problems: string[] = [];
  const { sid, init, started, status, errors } = session;
  if (omitted(sid)) problems.push('session.sid is required (a UUID)');
  else if (typeof sid !== 'string' || !SID.test(sid)) problems.push(`session.sid must be a UUID like 8f0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c11 (got ${shown(sid)})`);
  if (!omitted(init) && typeof init !== 'boolean') problems.push('session.init must be true or false');
  let startedMs: number | undefined;
  if (omitted(started)) problems.push('session.started is required (an ISO 8601 time, like 2026-12-06T12:00:00Z)');
  else if (typeof started !== 'string' || started.length > TIME_MAX || !ISO_TIME.test(started) || !Number.isFinite((startedMs = Date.parse(started))))
    problems.push(`session.started must be an ISO 8601 time with a zone, like 2026-12-06T12:00:00Z (got ${shown(started)})`);
  const statusValue = omitted(status) ? 'ok' : status;
  if (typeof statusValue !== 'string' || !(OWN_SESSION_STATUSES as readonly string[]).includes(statusValue))
    problems.push(`session.status must be one of ${OWN_SESSION_STATUSES.join(', ')} (got ${shown(status)})`);
  const errorCount = omitted(errors) ? 0 : errors;
  if (!Number.isSafeInteger(errorCount) || (errorCount as number) < 0 || (errorCount as number) > SESSION_ERRORS_MAX)
    problems.push(`session.errors must be a whole number from 0 to ${SESSION_ERRORS_MAX.toLocaleString('en-US')}`);
  const release = label(session.release, 'session.release', RELEASE_MAX, true, problems);
  const environment = label(session.environment, 'session.environment', ENVIRONMENT_MAX, false, problems);
  if (problems.length > 0 || release === undefined || startedMs === undefined) return { ok: false, problems };
  return {
    ok: true,
    value: {
      sid: (sid as string).toLowerCase(),
      init: init === true,
      status: statusValue as SessionUpdate['status'],
      errors: errorCount as number,
      startedMs,
      release,
      environment: environment ?? DEFAULT_ENVIRONMENT,
    },
  };
}

/**
 * The report of one own session, its user the request's visitor (the day's
 * hash the ingest computes of the client's address and user agent,
 * docs/report-issues.md#visitors-affected) when there is one: the SDK keeps
 * nothing in the browser, so the server names the user. The same person on
 * another day, or another browser, is another user.
 */
export function ownSessionReport(update: SessionUpdate, visitor: string | undefined): SessionReport {
  return { updates: [visitor === undefined ? update : { ...update, did: visitor }], aggregates: [], discarded: [], invalid: 0 };
}
