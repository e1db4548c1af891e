import * as z from 'zod/mini';

/** An optional whole number from 1 to `max` (a page size, a rate limit), with the one message every operation gives for it. */
export function optionalWholeNumber(name: string, max: number) {
  const error = `${name} must be a whole number from 1 to ${max}`;
  return z.optional(z.number({ error }).check(z.int({ error }), z.minimum(1, { error }), z.maximum(max, { error })));
}
