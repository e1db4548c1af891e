import * as z from 'zod/mini';

/**
 * The Sentry protocol's bodies (docs/sentry-sdks.md), for the OpenAPI
 * document only: the function frames them by hand
 * (lambda/ingest/sentry/envelope.ts, sentry-request.ts). An envelope is not
 * JSON but lines of it, so the document shows it as text and names its parts
 * in words; the store endpoint's event is one JSON object, whose fields the
 * service reads are listed (every other field is ignored).
 */

/** `POST …/envelope`: newline-separated JSON, optionally compressed as its Content-Encoding says. */
export const sentryEnvelopeSchema = z.string();

/** `POST …/store`: one Sentry event, the fields read (docs/sentry-sdks.md#kept-and-dropped). */
export const sentryStoreEventSchema = z.looseObject({
  event_id: z.optional(z.string()),
  timestamp: z.optional(z.union([z.string(), z.number()])),
  message: z.optional(z.union([z.string(), z.looseObject({})])),
  logentry: z.optional(z.looseObject({})),
  exception: z.optional(z.union([z.looseObject({}), z.array(z.looseObject({}))])),
  release: z.optional(z.string()),
  environment: z.optional(z.string()),
  tags: z.optional(z.union([z.record(z.string(), z.unknown()), z.array(z.array(z.unknown()))])),
  user: z.optional(z.looseObject({})),
  request: z.optional(z.looseObject({})),
  fingerprint: z.optional(z.array(z.union([z.string(), z.number()]))),
  debug_meta: z.optional(z.looseObject({})),
});
