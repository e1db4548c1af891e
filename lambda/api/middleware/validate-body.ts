import type { MiddlewareObj } from '@middy/core';
import type * as z from 'zod/mini';
import { apiError } from '../responses';

/**
 * Validates the parsed body against a zod schema and replaces it with the
 * schema's output; invalid content gives 422 listing every problem (spec 7).
 */
export function validateBody(schema: z.ZodMiniType): MiddlewareObj<{ body: unknown }> {
  return {
    name: 'validateBody',
    before: ({ event }) => {
      const result = schema.safeParse(event.body);
      if (!result.success) throw apiError(422, result.error.issues.map((issue) => issue.message).join('; '));
      event.body = result.data;
    },
  };
}
