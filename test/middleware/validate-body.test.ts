import middy from '@middy/core';
import * as z from 'zod/mini';
import { validateBody } from '../../lambda/api/middleware/validate-body';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { context, errorMessage, proxyEvent } from '../support/events';

const schema = z.object({ n: z.number({ error: 'n must be a number' }), s: z.string({ error: 's must be a string' }) });
/** The parsed body (what jsonBody leaves) on a proxy event, and what the handler then sees. */
const handler = (body: unknown, ctx: Context) =>
  middy<APIGatewayProxyEvent>()
    .use(validateBody(schema))
    .handler(async (event) => ({ statusCode: 200, body: (event as unknown as { body: unknown }).body }))(
      proxyEvent({ body: body as string }),
      ctx,
    );

describe('validateBody', () => {
  test("replaces the body with the schema's output (unknown keys dropped)", async () => {
    const res = await handler({ n: 1, s: 'x', extra: true }, context());
    expect(res.body).toEqual({ n: 1, s: 'x' });
  });

  test('answers 422 listing every problem', async () => {
    const error = await handler({ n: 'one' }, context()).catch((e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 422 });
    expect(errorMessage(error)).toBe('n must be a number; s must be a string');
  });
});
