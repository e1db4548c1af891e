import * as z from 'zod/mini';
import { contactSchema, upsertResultSchema } from '../domain/contact-schema';

/**
 * The API's answer bodies as zod schemas, for the OpenAPI document and the
 * typed client (openapi/). Runtime code imports them for types only: the
 * handler builds its answers, it never parses them.
 */

/** Every error's body (spec 4, 7). */
export const errorAnswerSchema = z
  .object({ error: z.string().check(z.describe('What went wrong and what to fix; never repeats a key.')) })
  .check(z.describe('Every error answer: one message.'));

/** A read's answer (spec 4.2, 4.3). */
export const contactAnswerSchema = z.object({ contact: contactSchema });

/** The upsert's answer (spec 4.1). */
export const upsertAnswerSchema = upsertResultSchema;

export type ErrorAnswer = z.output<typeof errorAnswerSchema>;
export type ContactAnswer = z.output<typeof contactAnswerSchema>;
