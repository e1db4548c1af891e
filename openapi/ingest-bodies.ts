import * as z from 'zod/mini';
import { OWN_SESSION_STATUSES, SESSION_ERRORS_MAX } from '../lambda/ingest/sessions/own-session';
import { charCount } from '../lambda/kernel/clip';
import { cleanText, type TextLines } from '../lambda/kernel/free-text';
import { EVENT_TEXT, FEATURE_REQUEST_TEXT, MAX_DEBUG_IDS, MAX_FINGERPRINT_PARTS, MAX_TAGS } from '../lambda/ingest/limits';
import { ISO_TIME, quote, UUID } from '../lambda/ingest/payloads';
import { EVENT_TYPES, type EventType } from '../lambda/ingest/issues/stored-event';
import { sentryEnvelopeSchema, sentryStoreEventSchema } from './sentry-bodies';

/**
 * The ingest API's bodies as zod schemas, for the OpenAPI document only
 * (document.ts takes them by route, as DOCUMENTED_BODIES): the function
 * itself reads its bodies with the hand-written readers of
 * lambda/ingest/payloads.ts, so that its asset carries no zod
 * (docs/performance.md#asset-sizes). These schemas are those readers' rules
 * written in zod, transforms and messages included:
 * test/rules/ingest-payloads-agree.test.ts parses generated bodies with both
 * and fails on any difference in outcome, value or message.
 */

/** A free-text field: optional (null, blank and missing are omitted), cleaned and clipped. */
function text(field: string, max: number, lines: TextLines = 'single-line') {
  return z.pipe(
    z.optional(z.nullable(z.string({ error: `${field} must be a string` }))),
    z.transform((value, ctx) => {
      if (value === undefined || value === null) return undefined;
      const checked = cleanText(value, { field, lines, max });
      if (!checked.ok) {
        ctx.issues.push({ code: 'custom', message: checked.problem, input: value });
        return z.NEVER;
      }
      return checked.text === '' ? undefined : checked.text;
    }),
  );
}

/** A required UUID: the idempotency key. Stored lowercase, so case never makes a second copy. */
function uuid(field: string) {
  return z.pipe(
    z.string({ error: (issue) => (issue.input === undefined || issue.input === null ? `${field} is required (a UUID)` : `${field} must be a string`) }),
    z.transform((value, ctx) => {
      const trimmed = value.trim();
      if (UUID.test(trimmed)) return trimmed.toLowerCase();
      ctx.issues.push({ code: 'custom', message: `${field} must be a UUID like 8f0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c11 (got ${quote(value)})`, input: value });
      return z.NEVER;
    }),
  );
}

/** An optional object of free-text fields; undefined when every field is omitted. */
function textObject<Shape extends Record<string, ReturnType<typeof text>>>(field: string, shape: Shape) {
  return z.pipe(
    z.optional(z.nullable(z.object(shape, { error: `${field} must be an object` }))),
    z.transform((value) => {
      if (!value) return undefined;
      const present = Object.entries(value).filter(([, v]) => v !== undefined);
      return present.length === 0 ? undefined : (Object.fromEntries(present) as { [K in keyof Shape]?: string });
    }),
  );
}

const reporter = textObject('reporter', {
  email: text('reporter.email', EVENT_TEXT.reporterEmail),
  name: text('reporter.name', EVENT_TEXT.reporterName),
});

const eventType = z.pipe(
  z.optional(z.nullable(z.string({ error: 'type must be a string' }))),
  z.transform((value, ctx): EventType => {
    if (value === undefined || value === null) return 'error';
    if ((EVENT_TYPES as readonly string[]).includes(value)) return value as EventType;
    ctx.issues.push({ code: 'custom', message: `type must be one of ${EVENT_TYPES.join(', ')} (got ${quote(value)})`, input: value });
    return z.NEVER;
  }),
);

const timestamp = z.pipe(
  z.optional(z.nullable(z.string({ error: 'timestamp must be a string' }))),
  z.transform((value, ctx) => {
    if (value === undefined || value === null || value.trim() === '') return undefined;
    const ms = ISO_TIME.test(value.trim()) ? Date.parse(value.trim()) : Number.NaN;
    if (Number.isFinite(ms)) return new Date(ms).toISOString();
    ctx.issues.push({ code: 'custom', message: `timestamp must be an ISO 8601 time like 2026-11-24T10:00:00Z (got ${quote(value)})`, input: value });
    return z.NEVER;
  }),
);

/**
 * `tags`: at most 50 entries of strings; keys clipped to 64, values to 200.
 * More entries, or a value that is not a string, is a problem. Built with
 * Object.fromEntries, so a key named "__proto__" is a plain key.
 */
const tags = z.pipe(
  z.optional(z.nullable(z.record(z.string(), z.unknown(), { error: 'tags must be an object of strings, like {"plan": "pro"}' }))),
  z.transform((value, ctx) => {
    if (value === undefined || value === null) return undefined;
    const entries = Object.entries(value);
    if (entries.length > MAX_TAGS) {
      ctx.issues.push({ code: 'custom', message: `tags has ${entries.length} entries: at most ${MAX_TAGS}`, input: value });
      return z.NEVER;
    }
    const kept: [string, string][] = [];
    let refused = false;
    const refuse = (message: string, input: unknown) => {
      ctx.issues.push({ code: 'custom', message, input });
      refused = true;
    };
    for (const [rawKey, rawValue] of entries) {
      const name = cleanText(rawKey, { field: 'a tag name', lines: 'single-line', max: EVENT_TEXT.tagKey });
      if (!name.ok) {
        refuse(name.problem, rawKey);
        continue;
      }
      const field = `tags.${name.text}`;
      if (typeof rawValue !== 'string') {
        refuse(`${field} must be a string`, rawValue);
        continue;
      }
      const checked = cleanText(rawValue, { field, lines: 'single-line', max: EVENT_TEXT.tagValue });
      if (!checked.ok) refuse(checked.problem, rawValue);
      else if (name.text !== '') kept.push([name.text, checked.text]);
    }
    if (refused) return z.NEVER;
    return kept.length === 0 ? undefined : Object.fromEntries(kept);
  }),
);

/**
 * `fingerprint`: 1 to 10 strings (each cleaned and clipped to 200) that
 * decide the event's issue instead of the server's rule (fingerprint.ts).
 */
const fingerprint = z.pipe(
  z.optional(z.nullable(z.array(z.unknown(), { error: 'fingerprint must be an array of strings, like ["checkout", "card declined"]' }))),
  z.transform((value, ctx) => {
    if (value === undefined || value === null) return undefined;
    if (value.length < 1 || value.length > MAX_FINGERPRINT_PARTS) {
      ctx.issues.push({ code: 'custom', message: `fingerprint has ${value.length} entries: send 1 to ${MAX_FINGERPRINT_PARTS} strings`, input: value });
      return z.NEVER;
    }
    const parts: string[] = [];
    for (const [index, part] of value.entries()) {
      const checked =
        typeof part === 'string' ? cleanText(part, { field: `fingerprint[${index}]`, lines: 'single-line', max: EVENT_TEXT.fingerprintPart }) : undefined;
      if (!checked?.ok) {
        ctx.issues.push({ code: 'custom', message: checked ? checked.problem : `fingerprint[${index}] must be a string`, input: part });
        return z.NEVER;
      }
      parts.push(checked.text);
    }
    return parts;
  }),
);

/**
 * `debugIds`: script URL → debug id, at most 20 entries; URLs cleaned and
 * clipped as pageUrl, ids UUIDs stored lowercase; a blank URL is dropped.
 */
const debugIds = z.pipe(
  z.optional(
    z.nullable(
      z.record(z.string(), z.unknown(), { error: 'debugIds must be an object of script URL to debug id, like {"https://shop.example.com/app.js": "<uuid>"}' }),
    ),
  ),
  z.transform((value, ctx) => {
    if (value === undefined || value === null) return undefined;
    const entries = Object.entries(value);
    if (entries.length > MAX_DEBUG_IDS) {
      ctx.issues.push({ code: 'custom', message: `debugIds has ${entries.length} entries: at most ${MAX_DEBUG_IDS}`, input: value });
      return z.NEVER;
    }
    const kept: [string, string][] = [];
    let refused = false;
    for (const [rawKey, rawValue] of entries) {
      const url = cleanText(rawKey, { field: 'a debugIds URL', lines: 'single-line', max: EVENT_TEXT.pageUrl });
      if (!url.ok) {
        ctx.issues.push({ code: 'custom', message: url.problem, input: rawKey });
        refused = true;
        continue;
      }
      const id = typeof rawValue === 'string' ? rawValue.trim() : '';
      if (!UUID.test(id)) {
        ctx.issues.push({ code: 'custom', message: `debugIds[${quote(url.text)}] must be a debug id (a UUID)`, input: rawValue });
        refused = true;
      } else if (url.text !== '') kept.push([url.text, id.toLowerCase()]);
    }
    if (refused) return z.NEVER;
    return kept.length === 0 ? undefined : Object.fromEntries(kept);
  }),
);

const exception = textObject('exception', {
  type: text('exception.type', EVENT_TEXT.exceptionType),
  value: text('exception.value', EVENT_TEXT.exceptionValue, 'multi-line'),
  stack: text('exception.stack', EVENT_TEXT.exceptionStack, 'multi-line'),
});

/** One event of `POST /ingest/v1/events`. */
export const eventSchema = z.pipe(
  z.object(
    {
      eventId: uuid('eventId'),
      type: eventType,
      timestamp,
      message: text('message', EVENT_TEXT.message, 'multi-line'),
      exception,
      pageUrl: text('pageUrl', EVENT_TEXT.pageUrl),
      release: text('release', EVENT_TEXT.release),
      tags,
      reporter,
      fingerprint,
      debugIds,
    },
    { error: 'an event must be a JSON object, like {"eventId": "…", "message": "…"}' },
  ),
  z.transform((event, ctx) => {
    if (event.message === undefined && event.exception === undefined) {
      ctx.issues.push({ code: 'custom', message: 'an event needs a message or an exception', input: event });
      return z.NEVER;
    }
    return event;
  }),
);

/**
 * The whole body of `POST /ingest/v1/events`, as the OpenAPI document shows
 * it: the API itself checks the envelope, then each event on its own
 * (receive-events.ts), never this schema as a whole.
 */
export const eventsRequestSchema = z.object({ events: z.array(eventSchema) });

/** `title`: required, 3 to 140 characters after trimming; longer is clipped. */
const title = z.pipe(
  z.string({ error: (issue) => (issue.input === undefined || issue.input === null ? 'title is required' : 'title must be a string') }),
  z.transform((value, ctx) => {
    const checked = cleanText(value, { field: 'title', lines: 'single-line', max: FEATURE_REQUEST_TEXT.title });
    if (!checked.ok) {
      ctx.issues.push({ code: 'custom', message: checked.problem, input: value });
      return z.NEVER;
    }
    if (charCount(checked.text) < FEATURE_REQUEST_TEXT.titleMin) {
      ctx.issues.push({
        code: 'custom',
        message: `title must have at least ${FEATURE_REQUEST_TEXT.titleMin} characters after trimming (got ${quote(checked.text)})`,
        input: value,
      });
      return z.NEVER;
    }
    return checked.text;
  }),
);

/** The body of `POST /ingest/v1/feature-requests`. */
export const featureRequestSchema = z.object(
  {
    requestId: uuid('requestId'),
    title,
    description: text('description', FEATURE_REQUEST_TEXT.description, 'multi-line'),
    category: text('category', FEATURE_REQUEST_TEXT.category),
    pageUrl: text('pageUrl', EVENT_TEXT.pageUrl),
    reporter,
  },
  { error: 'Request body must be a JSON object, like {"requestId": "…", "title": "Dark mode"}' },
);

/**
 * The body of `POST /ingest/v1/sessions`, for the document: the function
 * reads it by hand (lambda/ingest/sessions/own-session.ts), where each
 * field's rule and message are.
 */
export const sessionRequestSchema = z.object({
  session: z.object({
    sid: z.string(),
    init: z.optional(z.boolean()),
    started: z.string(),
    status: z.optional(z.enum(OWN_SESSION_STATUSES)),
    errors: z.optional(z.int().check(z.minimum(0), z.maximum(SESSION_ERRORS_MAX))),
    release: z.string(),
    environment: z.optional(z.string()),
  }),
});

/** The schema each ingest route's body is documented with, by route. */
export const DOCUMENTED_BODIES: Readonly<Record<string, z.ZodMiniType>> = {
  'POST /ingest/v1/events': eventsRequestSchema,
  'POST /ingest/v1/feature-requests': featureRequestSchema,
  'POST /ingest/v1/sessions': sessionRequestSchema,
  'POST /ingest/sentry/api/{projectId}/envelope': sentryEnvelopeSchema,
  'POST /ingest/sentry/api/{projectId}/store': sentryStoreEventSchema,
};
