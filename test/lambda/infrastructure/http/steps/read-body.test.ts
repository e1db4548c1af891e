import type { Reading } from '../../../../../lambda/kernel/reading';
import { readBody } from '../../../../../lambda/infrastructure/http/steps/read-body';
import { errorMessage, proxyEvent, thrown } from '../../../../support/events';

/** A reader in the shape of lambda/ingest/payloads.ts's: `n` a number, `s` a string, anything else dropped. */
function readPair(raw: unknown): Reading<{ n: number; s: string }> {
  const body = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof body.n !== 'number') problems.push('n must be a number');
  if (typeof body.s !== 'string') problems.push('s must be a string');
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: { n: body.n as number, s: body.s as string } };
}
const EXAMPLE = '{"n": 1, "s": "x"}';
const read = (body: unknown) => readBody(readPair, EXAMPLE).read(proxyEvent({ body: JSON.stringify(body) }));

describe('readBody', () => {
  test("gives the reader's value, typed as the reader says", () => {
    const body: { n: number; s: string } = read({ n: 1, s: 'x', extra: true });
    expect(body).toEqual({ n: 1, s: 'x' });
  });

  test("answers 422 listing every problem the reader found, in the reader's order", () => {
    const error = thrown(() => read({ n: 'one' }));
    expect(error).toMatchObject({ statusCode: 422 });
    expect(errorMessage(error)).toBe('n must be a number; s must be a string');
  });

  test('answers 400 before the reader for a body that is not JSON', () => {
    expect(thrown(() => readBody(readPair, EXAMPLE).read(proxyEvent({ body: '{"n": 1,' })))).toMatchObject({ statusCode: 400 });
  });

  test('shows the example in the 400 for an empty body', () => {
    expect(errorMessage(thrown(() => readBody(readPair, EXAMPLE).read(proxyEvent({ body: '' }))))).toContain(EXAMPLE);
  });

  test('carries no schema of its own: the OpenAPI document takes it from openapi/ingest-bodies.ts', () => {
    expect(readBody(readPair, EXAMPLE).schema).toBeUndefined();
  });
});
