import * as z from 'zod/mini';
import { validBody } from '../../../../../lambda/infrastructure/http/steps/validate-body';
import { errorMessage, proxyEvent, thrown } from '../../../../support/events';

const schema = z.object({ n: z.number({ error: 'n must be a number' }), s: z.string({ error: 's must be a string' }) });
/** The body as the route's operation would receive it. */
const read = (body: unknown) => validBody(schema, '{"n": 1}').read(proxyEvent({ body: JSON.stringify(body) }));

describe('validBody', () => {
  test("gives the schema's output (unknown keys dropped), typed as the schema says", () => {
    const body: { n: number; s: string } = read({ n: 1, s: 'x', extra: true });
    expect(body).toEqual({ n: 1, s: 'x' });
  });

  test('answers 422 listing every problem', () => {
    const error = thrown(() => read({ n: 'one' }));
    expect(error).toMatchObject({ statusCode: 422 });
    expect(errorMessage(error)).toBe('n must be a number; s must be a string');
  });

  test('answers 400 before the schema for a body that is not JSON', () => {
    expect(thrown(() => validBody(schema, '{"n": 1}').read(proxyEvent({ body: '{"n": 1,' })))).toMatchObject({ statusCode: 400 });
  });

  test('is documented with its schema', () => {
    expect(validBody(schema, '{"n": 1}').schema).toBe(schema);
  });
});
