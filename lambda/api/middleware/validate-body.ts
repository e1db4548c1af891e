import type { MiddlewareObj } from '@middy/core';
import type * as z from 'zod/mini';
import { apiError } from '../responses';
import type { ApiEvent } from '../types';

/**
 * Validates the parsed body against a zod schema and replaces it with the
 * schema's output; invalid content gives 422 listing every problem (spec 7).
 */
export function validateBody(schema: z.ZodMiniType): MiddlewareObj<ApiEvent> {
  return {
    name: 'validateBody',
    before: ({ event }) => {
      // jsonBody has replaced the text with what it parsed.
      const parsed = event as unknown as { body: unknown };
      const result = schema.safeParse(parsed.body);
      if (!result.success) throw apiError(422, result.error.issues.map((issue) => issue.message).join('; '));
      parsed.body = result.data;
    },
  };
}
