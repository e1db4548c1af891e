import { charCount } from '../kernel/clip';
import type { Reading } from '../kernel/reading';
import { normalizeEmail } from '../kernel/email';
import { cleanText, type TextLines } from '../kernel/free-text';
import { EVENT_TYPES, type EventType, type IngestEvent } from './issues/stored-event';
import { EVENT_TEXT, FEATURE_REQUEST_TEXT, MAX_DEBUG_IDS, MAX_FINGERPRINT_PARTS, MAX_TAGS } from './limits';
import type { ScrubCounts } from './scrub/rule';
import { Scrubber } from './scrub/scrubber';

/**
 * The bodies of the ingest API (docs/ingest-api.md#bodies): each reader
 * checks one event or one feature request and turns it into what is stored.
 * Unknown fields are dropped; `null` counts as omitted for every optional
 * field (what a browser SDK sends for "not set"); free text goes through the
 * one free-text rule (../kernel/free-text.ts) and is clipped, never refused for
 * length; a field of the wrong type is a problem (422), and every problem of
 * a body is listed, in field order. Every free-text field but the reporter's
 * is scrubbed (scrub/: card numbers, tokens, keys, emails… replaced by a
 * marker) as it is cleaned, before it is clipped and before anything groups
 * or stores it; what was replaced is counted on the report (`scrubbed`).
 *
 * Written by hand rather than with zod, which the contacts function keeps:
 * zod was 19.5 KB of the ingest function's asset (docs/performance.md#asset-sizes).
 * The zod schemas the OpenAPI document shows (openapi/ingest-bodies.ts) are
 * held to these readers, message for message, by
 * test/rules/ingest-payloads-agree.test.ts.
 */

/** A validated feature request, besides what the server adds. */
export interface FeatureRequestInput {
  requestId: string;
  title: string;
  description?: string;
  category?: string;
  pageUrl?: string;
  reporter?: { email?: string; name?: string };
  /** Values the scrubber replaced, per rule; absent when none. */
  scrubbed?: ScrubCounts;
}

/** What the readers of one body share: the problems found so far, and the body's scrubber. */
interface BodyReading {
  problems: string[];
  scrubber: Scrubber;
}

/**
 * One field's reader: its value as stored (undefined when omitted), or a
 * problem pushed onto `problems`; the value is then never used.
 */
type FieldReader<T> = (value: unknown, body: BodyReading) => T | undefined;

/** 8-4-4-4-12 hex digits, any version: what crypto.randomUUID() and every UUID library write. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** An ISO 8601 date and time with a zone: 2026-11-24T10:00:00Z, …T10:00:00.123+02:00. */
export const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** A value quoted in a problem, cut at 60 characters. */
export const quote = (value: string): string => JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
/** Notes a field's problem; the field then has no value. */
function refuse(problems: string[], problem: string): undefined {
  problems.push(problem);
  return undefined;
}

const omitted = (value: unknown): value is null | undefined => value === undefined || value === null;

/** A JSON object: not null, not an array. */
export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The fields that are set: an omitted one is absent, not `undefined`, in what is stored. */
function present<T extends object>(fields: T): T {
  for (const key of Object.keys(fields) as (keyof T)[]) if (fields[key] === undefined) delete fields[key];
  return fields;
}

/**
 * A body that must be a JSON object, read field by field by `read` (which
 * lists what is wrong on `problems`): its fields as stored, with what its
 * scrubber replaced, or every problem.
 */
function readObject<T extends { scrubbed?: ScrubCounts }>(
  raw: unknown,
  notAnObject: string,
  read: (fields: Record<string, unknown>, body: BodyReading) => T,
): Reading<T> {
  if (!isObject(raw)) return { ok: false, problems: [notAnObject] };
  const body: BodyReading = { problems: [], scrubber: new Scrubber() };
  const value = present(read(raw, body));
  const scrubbed = body.scrubber.replaced;
  if (scrubbed) value.scrubbed = scrubbed;
  return body.problems.length > 0 ? { ok: false, problems: body.problems } : { ok: true, value };
}

/** Whether a free-text field is scrubbed: all are but the reporter's, where a person's identity belongs. */
type Scrubbing = 'scrubbed' | 'kept';

/** A free-text field: optional (null, blank and missing are omitted), cleaned, scrubbed and clipped. */
function text(field: string, max: number, lines: TextLines = 'single-line', scrubbing: Scrubbing = 'scrubbed'): FieldReader<string> {
  return (value, { problems, scrubber }) => {
    if (omitted(value)) return undefined;
    if (typeof value !== 'string') return refuse(problems, `${field} must be a string`);
    const checked = cleanText(value, { field, lines, max, ...(scrubbing === 'scrubbed' ? { scrub: (cleaned) => scrubber.text(cleaned) } : {}) });
    if (!checked.ok) return refuse(problems, checked.problem);
    return checked.text === '' ? undefined : checked.text;
  };
}

/** A required UUID: the idempotency key. Stored lowercase, so case never makes a second copy. */
function uuid(field: string): FieldReader<string> {
  return (value, { problems }) => {
    if (omitted(value)) return refuse(problems, `${field} is required (a UUID)`);
    if (typeof value !== 'string') return refuse(problems, `${field} must be a string`);
    const trimmed = value.trim();
    if (UUID.test(trimmed)) return trimmed.toLowerCase();
    return refuse(problems, `${field} must be a UUID like 8f0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c11 (got ${quote(value)})`);
  };
}

/** An optional object of free-text fields; undefined when every field is omitted. */
function textObject<Key extends string>(field: string, shape: Record<Key, FieldReader<string>>): FieldReader<{ [K in Key]?: string }> {
  return (value, body) => {
    if (omitted(value)) return undefined;
    if (!isObject(value)) return refuse(body.problems, `${field} must be an object`);
    const read: { [K in Key]?: string } = {};
    for (const key of Object.keys(shape) as Key[]) read[key] = shape[key](value[key], body);
    present(read);
    return Object.keys(read).length === 0 ? undefined : read;
  };
}

/** Who sent the report, as they gave it: identity belongs here, so it is not scrubbed. */
const reporterFields = textObject('reporter', {
  email: text('reporter.email', EVENT_TEXT.reporterEmail, 'single-line', 'kept'),
  name: text('reporter.name', EVENT_TEXT.reporterName, 'single-line', 'kept'),
});

/**
 * The reporter as stored: an address in any of its fields is the person's
 * (docs/privacy.md#a-person-in-any-field). A name that is an address and no
 * email given: it is the email (keyed to the person, erased and exported with
 * them). A name that is the email again: dropped. An address inside a name
 * that is not the reporter's: scrubbed, as in any other field.
 */
const reporter: FieldReader<{ email?: string; name?: string }> = (value, body) => {
  const read = reporterFields(value, body);
  const name = read?.name;
  if (!read || name === undefined || !/@|%40|\uff20|\ufe6b/.test(name)) return read;
  const { email } = read;
  if (email === undefined && normalizeEmail(name).ok) return { email: name };
  if (email !== undefined && name.toLowerCase() === email.toLowerCase()) return { email };
  const scrubbed = body.scrubber.emailsIn(name);
  return { ...(email === undefined ? {} : { email }), ...(scrubbed === '' ? {} : { name: scrubbed }) };
};

const exception = textObject('exception', {
  type: text('exception.type', EVENT_TEXT.exceptionType),
  value: text('exception.value', EVENT_TEXT.exceptionValue, 'multi-line'),
  stack: text('exception.stack', EVENT_TEXT.exceptionStack, 'multi-line'),
});

/** `type`: one of EVENT_TYPES; `error` when omitted. */
const eventType: FieldReader<EventType> = (value, { problems }) => {
  if (omitted(value)) return 'error';
  if (typeof value !== 'string') return refuse(problems, 'type must be a string');
  if ((EVENT_TYPES as readonly string[]).includes(value)) return value as EventType;
  return refuse(problems, `type must be one of ${EVENT_TYPES.join(', ')} (got ${quote(value)})`);
};

/** `timestamp`: the browser's clock, stored as ISO 8601 UTC; blank is omitted. */
const timestamp: FieldReader<string> = (value, { problems }) => {
  if (omitted(value)) return undefined;
  if (typeof value !== 'string') return refuse(problems, 'timestamp must be a string');
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  const ms = ISO_TIME.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  if (Number.isFinite(ms)) return new Date(ms).toISOString();
  return refuse(problems, `timestamp must be an ISO 8601 time like 2026-11-24T10:00:00Z (got ${quote(value)})`);
};

/**
 * `tags`: at most 50 entries of strings; keys clipped to 64, values to 200.
 * More entries, or a value that is not a string, is a problem. The map is
 * built with Object.fromEntries, where every key a sender names, "__proto__"
 * and "constructor" included, is a plain own key (never a prototype); the
 * stored event keeps it as JSON text (event-detail.ts). Names and values are
 * scrubbed; the value of a tag named like a credential (`authToken`) is
 * replaced whole.
 */
const tags: FieldReader<Record<string, string>> = (value, { problems, scrubber }) => {
  if (omitted(value)) return undefined;
  if (!isObject(value)) return refuse(problems, 'tags must be an object of strings, like {"plan": "pro"}');
  const entries = Object.entries(value);
  if (entries.length > MAX_TAGS) return refuse(problems, `tags has ${entries.length} entries: at most ${MAX_TAGS}`);
  const kept: [string, string][] = [];
  for (const [rawKey, rawValue] of entries) {
    const name = cleanText(rawKey, { field: 'a tag name', lines: 'single-line', max: EVENT_TEXT.tagKey, scrub: (cleaned) => scrubber.text(cleaned) });
    if (!name.ok) {
      problems.push(name.problem);
      continue;
    }
    const field = `tags.${name.text}`;
    if (typeof rawValue !== 'string') {
      problems.push(`${field} must be a string`);
      continue;
    }
    const checked = cleanText(rawValue, { field, lines: 'single-line', max: EVENT_TEXT.tagValue, scrub: (cleaned) => scrubber.tagValue(name.text, cleaned) });
    if (!checked.ok) problems.push(checked.problem);
    else if (name.text !== '') kept.push([name.text, checked.text]);
  }
  return kept.length === 0 ? undefined : Object.fromEntries(kept);
};

/**
 * `fingerprint`: 1 to 10 strings (each cleaned and clipped to 200) that
 * decide the event's issue instead of the server's rule (fingerprint.ts).
 * Scrubbed like the rest: a page that puts a user's token in its fingerprint
 * groups by the marker.
 */
const fingerprint: FieldReader<string[]> = (value, { problems, scrubber }) => {
  if (omitted(value)) return undefined;
  if (!Array.isArray(value)) return refuse(problems, 'fingerprint must be an array of strings, like ["checkout", "card declined"]');
  if (value.length < 1 || value.length > MAX_FINGERPRINT_PARTS) {
    return refuse(problems, `fingerprint has ${value.length} entries: send 1 to ${MAX_FINGERPRINT_PARTS} strings`);
  }
  const parts: string[] = [];
  for (const [index, part] of (value as unknown[]).entries()) {
    const checked =
      typeof part === 'string'
        ? cleanText(part, { field: `fingerprint[${index}]`, lines: 'single-line', max: EVENT_TEXT.fingerprintPart, scrub: (cleaned) => scrubber.text(cleaned) })
        : undefined;
    if (!checked?.ok) return refuse(problems, checked ? checked.problem : `fingerprint[${index}] must be a string`);
    parts.push(checked.text);
  }
  return parts;
};

/**
 * `debugIds`: script URL → debug id, at most 20 entries; URLs cleaned,
 * scrubbed (as the stack they name is) and clipped as pageUrl, ids UUIDs
 * stored lowercase. More entries, or an id that is not a UUID, is a problem;
 * a blank URL is dropped; any other name, "__proto__" included, is a plain key (as tags).
 */
const debugIds: FieldReader<Record<string, string>> = (value, { problems, scrubber }) => {
  if (omitted(value)) return undefined;
  if (!isObject(value)) return refuse(problems, 'debugIds must be an object of script URL to debug id, like {"https://shop.example.com/app.js": "<uuid>"}');
  const entries = Object.entries(value);
  if (entries.length > MAX_DEBUG_IDS) return refuse(problems, `debugIds has ${entries.length} entries: at most ${MAX_DEBUG_IDS}`);
  const kept: [string, string][] = [];
  for (const [rawKey, rawValue] of entries) {
    const url = cleanText(rawKey, { field: 'a debugIds URL', lines: 'single-line', max: EVENT_TEXT.pageUrl, scrub: (cleaned) => scrubber.text(cleaned) });
    if (!url.ok) {
      problems.push(url.problem);
      continue;
    }
    const id = typeof rawValue === 'string' ? rawValue.trim() : '';
    if (!UUID.test(id)) problems.push(`debugIds[${quote(url.text)}] must be a debug id (a UUID)`);
    else if (url.text !== '') kept.push([url.text, id.toLowerCase()]);
  }
  return kept.length === 0 ? undefined : Object.fromEntries(kept);
};

const eventId = uuid('eventId');
const message = text('message', EVENT_TEXT.message, 'multi-line');
const pageUrl = text('pageUrl', EVENT_TEXT.pageUrl);
const release = text('release', EVENT_TEXT.release);

/** One event of `POST /ingest/v1/events` (the envelope is receive-events.ts's). */
export function readEvent(raw: unknown): Reading<IngestEvent> {
  return readObject(raw, 'an event must be a JSON object, like {"eventId": "…", "message": "…"}', (fields, body) => {
    // In the order the problems are listed.
    const event: IngestEvent = {
      eventId: eventId(fields.eventId, body) as string,
      type: eventType(fields.type, body) as EventType,
      timestamp: timestamp(fields.timestamp, body),
      message: message(fields.message, body),
      exception: exception(fields.exception, body),
      pageUrl: pageUrl(fields.pageUrl, body),
      release: release(fields.release, body),
      tags: tags(fields.tags, body),
      reporter: reporter(fields.reporter, body),
      fingerprint: fingerprint(fields.fingerprint, body),
      debugIds: debugIds(fields.debugIds, body),
    };
    // Asked only of an event whose fields are all valid: it would repeat a field's own problem.
    if (body.problems.length === 0 && event.message === undefined && event.exception === undefined)
      body.problems.push('an event needs a message or an exception');
    return event;
  });
}

/** `title`: required, 3 to 140 characters after trimming; longer is clipped. */
const title: FieldReader<string> = (value, { problems, scrubber }) => {
  if (omitted(value)) return refuse(problems, 'title is required');
  if (typeof value !== 'string') return refuse(problems, 'title must be a string');
  const checked = cleanText(value, { field: 'title', lines: 'single-line', max: FEATURE_REQUEST_TEXT.title, scrub: (cleaned) => scrubber.text(cleaned) });
  if (!checked.ok) return refuse(problems, checked.problem);
  if (charCount(checked.text) >= FEATURE_REQUEST_TEXT.titleMin) return checked.text;
  return refuse(problems, `title must have at least ${FEATURE_REQUEST_TEXT.titleMin} characters after trimming (got ${quote(checked.text)})`);
};

const requestId = uuid('requestId');
const description = text('description', FEATURE_REQUEST_TEXT.description, 'multi-line');
const category = text('category', FEATURE_REQUEST_TEXT.category);

/** The body of `POST /ingest/v1/feature-requests`. */
export function readFeatureRequest(raw: unknown): Reading<FeatureRequestInput> {
  return readObject(
    raw,
    'Request body must be a JSON object, like {"requestId": "…", "title": "Dark mode"}',
    (fields, body): FeatureRequestInput => ({
      requestId: requestId(fields.requestId, body) as string,
      title: title(fields.title, body) as string,
      description: description(fields.description, body),
      category: category(fields.category, body),
      pageUrl: pageUrl(fields.pageUrl, body),
      reporter: reporter(fields.reporter, body),
    }),
  );
}
