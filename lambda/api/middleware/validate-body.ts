import type { MiddlewareObj } from '@middy/core';
import type * as z from 'zod/mini';
import { apiError } from '../responses';
import type { ApiEvent } from '../types';

/** The validateBody step of a route: its schema is also what the OpenAPI document says the body is. */
export interface ValidateBodyStep extends MiddlewareObj<ApiEvent> {
  name: 'validateBody';
  schema: z.ZodMiniType;
}

/**
 * Validates the parsed body against a zod schema and replaces it with the
 * schema's output; invalid content gives 422 listing every problem (docs/contacts-api.md#errors).
 */
export function validateBody(schema: z.ZodMiniType): ValidateBodyStep {
  return {
    name: 'validateBody',
    schema,
    before: ({ event }) => {
      // jsonBody has replaced the text with what it parsed.
      const parsed = event as unknown as { body: unknown };
      const result = schema.safeParse(parsed.body);
      if (!result.success) throw apiError(422, result.error.issues.map((issue) => issue.message).join('; '));
      parsed.body = result.data;
    },
  };
}

/** The body schema a route's steps validate with, if any (read by the OpenAPI generator). */
export function bodySchemaOf(steps: readonly { name?: string }[]): z.ZodMiniType | undefined {
  for (const step of steps) {
    if (step.name === 'validateBody' && 'schema' in step) return (step as ValidateBodyStep).schema;
  }
  return undefined;
}
