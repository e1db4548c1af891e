import middy from '@middy/core';
import * as z from 'zod/mini';
import { validateBody } from '../../lambda/api/middleware/validate-body';
import { context, errorMessage } from '../support/events';

const schema = z.object({ n: z.number({ error: 'n must be a number' }), s: z.string({ error: 's must be a string' }) });
const handler = middy()
  .use(validateBody(schema))
  .handler(async (event: { body: unknown }) => ({ statusCode: 200, body: event.body }));

describe('validateBody', () => {
  test("replaces the body with the schema's output (unknown keys dropped)", async () => {
    const res = await handler({ body: { n: 1, s: 'x', extra: true } }, context());
    expect(res.body).toEqual({ n: 1, s: 'x' });
  });

  test('answers 422 listing every problem', async () => {
    const error = await handler({ body: { n: 'one' } }, context()).catch((e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 422 });
    expect(errorMessage(error)).toBe('n must be a number; s must be a string');
  });
});
