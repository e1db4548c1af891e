import type * as z from 'zod/mini';
import type { BodyReader } from '../pipeline';
import { apiError } from '../responses';
import { parseJsonBody } from './json-body';

/**
 * The parsed body checked against a zod schema, as the schema's output;
 * invalid content gives 422 listing every problem (docs/contacts-api.md#errors).
 */
export function validateBody<Out>(schema: z.ZodMiniType<Out>, parsed: unknown): Out {
  const result = schema.safeParse(parsed);
  if (!result.success) throw apiError(422, result.error.issues.map((issue) => issue.message).join('; '));
  return result.data;
}

/**
 * A route's body: JSON (400, see parseJsonBody), then valid against the
 * schema (422). The schema is also what the OpenAPI document says the body
 * is, and its output type is what the route's operation receives.
 */
export function validBody<Out>(schema: z.ZodMiniType<Out>, example: string): BodyReader<Out> {
  return { read: (event) => validateBody(schema, parseJsonBody(event, example)), schema };
}
