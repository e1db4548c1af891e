import * as z from 'zod/mini';
import { contactSchema, upsertResultSchema } from '../../contacts/domain/contact-schema';

/**
 * The API's answer bodies as zod schemas, for the OpenAPI document and the
 * typed client (openapi/). Runtime code imports them for types only: the
 * handler builds its answers, it never parses them.
 */

/** Every error's body (docs/contacts-api.md#errors). */
export const errorAnswerSchema = z
  .object({ error: z.string().check(z.describe('What went wrong and what to fix; never repeats a key.')) })
  .check(z.describe('Every error answer: one message.'));

/** A read's answer (docs/contacts-api.md#read-a-contact--get-apiv1contactsid, docs/contacts-api.md#find-a-contact-by-email--get-apiv1contactsemail). */
export const contactAnswerSchema = z.object({ contact: contactSchema });

/** The upsert's answer (docs/contacts-api.md#upsert-a-contact--post-apiv1contacts). */
export const upsertAnswerSchema = upsertResultSchema;

export type ErrorAnswer = z.output<typeof errorAnswerSchema>;
export type ContactAnswer = z.output<typeof contactAnswerSchema>;

/** The ingest API's answer to `POST /ingest/v1/events` (202). */
export const eventsReceiptSchema = z.object({
  accepted: z.int().check(z.minimum(0), z.describe('Events stored now.')),
  duplicates: z.int().check(z.minimum(0), z.describe("Events the factory already had (the same eventId): a retry's.")),
  rejected: z
    .array(
      z.object({
        index: z.int().check(z.minimum(0), z.describe('The position of the event in `events`.')),
        error: z.string().check(z.describe('Why it was not stored.')),
      }),
    )
    .check(z.describe('The invalid events, each with what to fix; the others were stored.')),
});

/** The ingest API's answer to `POST /ingest/v1/feature-requests` (201, or 200 for a requestId seen before). */
export const featureRequestAnswerSchema = z.object({
  featureRequest: z.object({
    id: z.string().check(z.regex(/^fr_[0-9a-f]{16}$/), z.describe('`fr_` + 16 hex: the same for the same factory and requestId.')),
    title: z.string().check(z.describe('As first stored.')),
    createdAt: z.string().check(z.describe('ISO 8601 UTC: when the server first received it.')),
  }),
  created: z.boolean().check(z.describe('True with 201, false with 200: mirrors the status.')),
});

/** The Sentry protocol's answer (docs/sentry-sdks.md): the id of the envelope's first event, as Sentry writes it (32 hex), or null when it had none. */
/** The ingest API's answer to `POST /ingest/v1/sessions` (202): the session was recorded. */
export const sessionReceiptSchema = z.object({
  accepted: z.literal(true).check(z.describe('The session update was taken: counted once per status it reached (docs/release-health.md).')),
});

export const sentryAnswerSchema = z.object({
  id: z.nullable(z.string().check(z.describe('The event id, 32 lowercase hex digits.'))),
});
