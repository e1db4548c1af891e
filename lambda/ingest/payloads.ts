import { charCount } from '../domain/clip';
import type { Reading } from '../domain/reading';
import { cleanText, type TextLines } from './free-text';
import { EVENT_TEXT, FEATURE_REQUEST_TEXT, MAX_DEBUG_IDS, MAX_FINGERPRINT_PARTS, MAX_TAGS } from './limits';

/**
 * The bodies of the ingest API (docs/ingest-api.md#bodies): each reader
 * checks one event or one feature request and turns it into what is stored.
 * Unknown fields are dropped; `null` counts as omitted for every optional
 * field (what a browser SDK sends for "not set"); free text goes through the
 * one free-text rule (free-text.ts) and is clipped, never refused for
 * length; a field of the wrong type is a problem (422), and every problem of
 * a body is listed, in field order.
 *
 * Written by hand rather than with zod, which the contacts function keeps:
 * zod was 19.5 KB of the ingest function's asset (docs/performance.md#asset-sizes).
 * The zod schemas the OpenAPI document shows (openapi/ingest-bodies.ts) are
 * held to these readers, message for message, by
 * test/rules/ingest-payloads-agree.test.ts.
 */

export const EVENT_TYPES = ['error', 'bug_report', 'message'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** A validated event: what is stored, besides what the server adds. */
export interface IngestEvent {
  /** Lowercase: case never makes a second copy. */
  eventId: string;
  type: EventType;
  /** ISO 8601 UTC. */
  timestamp?: string;
  message?: string;
  exception?: { type?: string; value?: string; stack?: string };
  pageUrl?: string;
  release?: string;
  tags?: Record<string, string>;
  reporter?: { email?: string; name?: string };
  fingerprint?: string[];
  /** Script URL → debug id (lowercase UUID) of the scripts in its stack, as the browser SDK found them (docs/source-maps.md). */
  debugIds?: Record<string, string>;
}

/** A validated feature request, besides what the server adds. */
export interface FeatureRequestInput {
  requestId: string;
  title: string;
  description?: string;
  category?: string;
  pageUrl?: string;
  reporter?: { email?: string; name?: string };
}

/**
 * One field's reader: its value as stored (undefined when omitted), or a
 * problem pushed onto `problems`; the value is then never used.
 */
type FieldReader<T> = (value: unknown, problems: string[]) => T | undefined;

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
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The fields that are set: an omitted one is absent, not `undefined`, in what is stored. */
function present<T extends object>(fields: T): T {
  for (const key of Object.keys(fields) as (keyof T)[]) if (fields[key] === undefined) delete fields[key];
  return fields;
}

/**
 * A body that must be a JSON object, read field by field by `read` (which
 * lists what is wrong on `problems`): its fields as stored, or every problem.
 */
function readObject<T extends object>(raw: unknown, notAnObject: string, read: (body: Record<string, unknown>, problems: string[]) => T): Reading<T> {
  if (!isObject(raw)) return { ok: false, problems: [notAnObject] };
  const problems: string[] = [];
  const value = present(read(raw, problems));
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value };
}

/** A free-text field: optional (null, blank and missing are omitted), cleaned and clipped. */
function text(field: string, max: number, lines: TextLines = 'single-line'): FieldReader<string> {
  return (value, problems) => {
    if (omitted(value)) return undefined;
    if (typeof value !== 'string') return refuse(problems, `${field} must be a string`);
    const checked = cleanText(value, { field, lines, max });
    if (!checked.ok) return refuse(problems, checked.problem);
    return checked.text === '' ? undefined : checked.text;
  };
}

/** A required UUID: the idempotency key. Stored lowercase, so case never makes a second copy. */
function uuid(field: string): FieldReader<string> {
  return (value, problems) => {
    if (omitted(value)) return refuse(problems, `${field} is required (a UUID)`);
    if (typeof value !== 'string') return refuse(problems, `${field} must be a string`);
    const trimmed = value.trim();
    if (UUID.test(trimmed)) return trimmed.toLowerCase();
    return refuse(problems, `${field} must be a UUID like 8f0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c11 (got ${quote(value)})`);
  };
}

/** An optional object of free-text fields; undefined when every field is omitted. */
function textObject<Key extends string>(field: string, shape: Record<Key, FieldReader<string>>): FieldReader<{ [K in Key]?: string }> {
  return (value, problems) => {
    if (omitted(value)) return undefined;
    if (!isObject(value)) return refuse(problems, `${field} must be an object`);
    const read: { [K in Key]?: string } = {};
    for (const key of Object.keys(shape) as Key[]) read[key] = shape[key](value[key], problems);
    present(read);
    return Object.keys(read).length === 0 ? undefined : read;
  };
}

const reporter = textObject('reporter', {
  email: text('reporter.email', EVENT_TEXT.reporterEmail),
  name: text('reporter.name', EVENT_TEXT.reporterName),
});

const exception = textObject('exception', {
  type: text('exception.type', EVENT_TEXT.exceptionType),
  value: text('exception.value', EVENT_TEXT.exceptionValue, 'multi-line'),
  stack: text('exception.stack', EVENT_TEXT.exceptionStack, 'multi-line'),
});

/** `type`: one of EVENT_TYPES; `error` when omitted. */
const eventType: FieldReader<EventType> = (value, problems) => {
  if (omitted(value)) return 'error';
  if (typeof value !== 'string') return refuse(problems, 'type must be a string');
  if ((EVENT_TYPES as readonly string[]).includes(value)) return value as EventType;
  return refuse(problems, `type must be one of ${EVENT_TYPES.join(', ')} (got ${quote(value)})`);
};

/** `timestamp`: the browser's clock, stored as ISO 8601 UTC; blank is omitted. */
const timestamp: FieldReader<string> = (value, problems) => {
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
 * More entries, or a value that is not a string, is a problem. A tag named
 * "__proto__" is dropped (as zod dropped it), so no reader of the stored
 * event can meet it as a prototype; the rest are built with
 * Object.fromEntries, where every key is a plain key.
 */
const tags: FieldReader<Record<string, string>> = (value, problems) => {
  if (omitted(value)) return undefined;
  if (!isObject(value)) return refuse(problems, 'tags must be an object of strings, like {"plan": "pro"}');
  const entries = Object.entries(value).filter(([key]) => key !== '__proto__');
  if (entries.length > MAX_TAGS) return refuse(problems, `tags has ${entries.length} entries: at most ${MAX_TAGS}`);
  const kept: [string, string][] = [];
  for (const [rawKey, rawValue] of entries) {
    const name = cleanText(rawKey, { field: 'a tag name', lines: 'single-line', max: EVENT_TEXT.tagKey });
    if (!name.ok) {
      problems.push(name.problem);
      continue;
    }
    const field = `tags.${name.text}`;
    if (typeof rawValue !== 'string') {
      problems.push(`${field} must be a string`);
      continue;
    }
    const checked = cleanText(rawValue, { field, lines: 'single-line', max: EVENT_TEXT.tagValue });
    if (!checked.ok) problems.push(checked.problem);
    else if (name.text !== '') kept.push([name.text, checked.text]);
  }
  return kept.length === 0 ? undefined : Object.fromEntries(kept);
};

/**
 * `fingerprint`: 1 to 10 strings (each cleaned and clipped to 200) that
 * decide the event's issue instead of the server's rule (fingerprint.ts).
 */
const fingerprint: FieldReader<string[]> = (value, problems) => {
  if (omitted(value)) return undefined;
  if (!Array.isArray(value)) return refuse(problems, 'fingerprint must be an array of strings, like ["checkout", "card declined"]');
  if (value.length < 1 || value.length > MAX_FINGERPRINT_PARTS) {
    return refuse(problems, `fingerprint has ${value.length} entries: send 1 to ${MAX_FINGERPRINT_PARTS} strings`);
  }
  const parts: string[] = [];
  for (const [index, part] of (value as unknown[]).entries()) {
    const checked = typeof part === 'string' ? cleanText(part, { field: `fingerprint[${index}]`, lines: 'single-line', max: EVENT_TEXT.fingerprintPart }) : undefined;
    if (!checked?.ok) return refuse(problems, checked ? checked.problem : `fingerprint[${index}] must be a string`);
    parts.push(checked.text);
  }
  return parts;
};

/**
 * `debugIds`: script URL → debug id, at most 20 entries; URLs cleaned and
 * clipped as pageUrl, ids UUIDs stored lowercase. More entries, or an id
 * that is not a UUID, is a problem; a URL named "__proto__" or blank is
 * dropped (as tags).
 */
const debugIds: FieldReader<Record<string, string>> = (value, problems) => {
  if (omitted(value)) return undefined;
  if (!isObject(value)) return refuse(problems, 'debugIds must be an object of script URL to debug id, like {"https://shop.example.com/app.js": "<uuid>"}');
  const entries = Object.entries(value).filter(([key]) => key !== '__proto__');
  if (entries.length > MAX_DEBUG_IDS) return refuse(problems, `debugIds has ${entries.length} entries: at most ${MAX_DEBUG_IDS}`);
  const kept: [string, string][] = [];
  for (const [rawKey, rawValue] of entries) {
    const url = cleanText(rawKey, { field: 'a debugIds URL', lines: 'single-line', max: EVENT_TEXT.pageUrl });
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
  return readObject(raw, 'an event must be a JSON object, like {"eventId": "…", "message": "…"}', (body, problems) => {
    // In the order the problems are listed.
    const event: IngestEvent = {
      eventId: eventId(body.eventId, problems) as string,
      type: eventType(body.type, problems) as EventType,
      timestamp: timestamp(body.timestamp, problems),
      message: message(body.message, problems),
      exception: exception(body.exception, problems),
      pageUrl: pageUrl(body.pageUrl, problems),
      release: release(body.release, problems),
      tags: tags(body.tags, problems),
      reporter: reporter(body.reporter, problems),
      fingerprint: fingerprint(body.fingerprint, problems),
      debugIds: debugIds(body.debugIds, problems),
    };
    // Asked only of an event whose fields are all valid: it would repeat a field's own problem.
    if (problems.length === 0 && event.message === undefined && event.exception === undefined) problems.push('an event needs a message or an exception');
    return event;
  });
}

/** `title`: required, 3 to 140 characters after trimming; longer is clipped. */
const title: FieldReader<string> = (value, problems) => {
  if (omitted(value)) return refuse(problems, 'title is required');
  if (typeof value !== 'string') return refuse(problems, 'title must be a string');
  const checked = cleanText(value, { field: 'title', lines: 'single-line', max: FEATURE_REQUEST_TEXT.title });
  if (!checked.ok) return refuse(problems, checked.problem);
  if (charCount(checked.text) >= FEATURE_REQUEST_TEXT.titleMin) return checked.text;
  return refuse(problems, `title must have at least ${FEATURE_REQUEST_TEXT.titleMin} characters after trimming (got ${quote(checked.text)})`);
};

const requestId = uuid('requestId');
const description = text('description', FEATURE_REQUEST_TEXT.description, 'multi-line');
const category = text('category', FEATURE_REQUEST_TEXT.category);

/** The body of `POST /ingest/v1/feature-requests`. */
export function readFeatureRequest(raw: unknown): Reading<FeatureRequestInput> {
  return readObject(raw, 'Request body must be a JSON object, like {"requestId": "…", "title": "Dark mode"}', (body, problems) => ({
    requestId: requestId(body.requestId, problems) as string,
    title: title(body.title, problems) as string,
    description: description(body.description, problems),
    category: category(body.category, problems),
    pageUrl: pageUrl(body.pageUrl, problems),
    reporter: reporter(body.reporter, problems),
  }));
}
