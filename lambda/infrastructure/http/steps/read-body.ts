import type { Reading } from '../../../kernel/reading';
import type { BodyReader } from '../pipeline';
import { apiError } from '../responses';
import { parseJsonBody } from './json-body';

/**
 * A route's body: JSON (400, see parseJsonBody), then read by a hand-written
 * reader (422 listing every problem, as validBody does with a zod schema).
 * For a function that carries no zod (the ingest API:
 * lambda/ingest/payloads.ts); the OpenAPI document takes such a route's
 * schema from openapi/ingest-bodies.ts.
 */
export function readBody<Out>(reader: (parsed: unknown) => Reading<Out>, example: string): BodyReader<Out> {
  return {
    read: (event) => {
      const reading = reader(parseJsonBody(event, example));
      if (!reading.ok) throw apiError(422, reading.problems.join('; '));
      return reading.value;
    },
  };
}
