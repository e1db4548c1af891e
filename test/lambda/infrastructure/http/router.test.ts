import { createRouter, routeLabeler, type Route } from '../../../../lambda/infrastructure/http/router';
import { context, proxyEvent } from '../../../support/events';

const answer = (name: string) => async (event: { pathParameters: Record<string, string> | null }) => ({
  statusCode: 200,
  body: JSON.stringify({ name, params: event.pathParameters }),
});
const ROUTES: Route[] = [
  { method: 'GET', path: '/api/v1/contacts/{id}', handler: answer('by id') as never },
  { method: 'GET', path: '/api/v1/contacts/search', handler: answer('search') as never },
  { method: 'POST', path: '/api/v1/contacts', handler: answer('upsert') as never },
];
const router = createRouter(ROUTES, 'The contacts API lives under /api/v1/contacts.');
const route = async (httpMethod: string, path: string) => {
  try {
    const result = await router(proxyEvent({ httpMethod, path }), context());
    return { status: result.statusCode, body: JSON.parse(result.body) };
  } catch (error) {
    const refusal = error as { statusCode: number; message: string; headers?: Record<string, string> };
    return { status: refusal.statusCode, body: JSON.parse(refusal.message), headers: refusal.headers };
  }
};

describe('the router', () => {
  test("routes by method and path, a parameter's value joining pathParameters, a trailing slash optional", async () => {
    expect(await route('GET', '/api/v1/contacts/ct_1/')).toEqual({ status: 200, body: { name: 'by id', params: { id: 'ct_1' } } });
    expect((await route('POST', '/api/v1/contacts')).body.name).toBe('upsert');
  });

  test('a path without parameters wins over one with', async () => {
    expect((await route('GET', '/api/v1/contacts/search')).body.name).toBe('search');
  });

  test('a known path under another method is 405 with Allow; an unknown path 404 saying where the API lives', async () => {
    expect(await route('DELETE', '/api/v1/contacts')).toEqual({
      status: 405,
      body: { error: 'Method DELETE is not allowed on /api/v1/contacts; allowed: POST.' },
      headers: { Allow: 'POST' },
    });
    expect(await route('GET', '/api/v2/nothing')).toMatchObject({
      status: 404,
      body: { error: 'No such endpoint: GET /api/v2/nothing. The contacts API lives under /api/v1/contacts.' },
    });
  });

  test('a parameter is one segment: a path with more does not match', async () => {
    expect((await route('GET', '/api/v1/contacts/a/b')).status).toBe(404);
  });
});

describe('the route a request is recorded under', () => {
  const label = routeLabeler(ROUTES);
  test('the method and template, never the raw path', () => {
    expect(label('GET', '/api/v1/contacts/ada@example.com')).toBe('GET /api/v1/contacts/{id}');
  });

  test('another method on a known path, and no path at all, each say so', () => {
    expect(label('DELETE', '/api/v1/contacts')).toBe('/api/v1/contacts (other method)');
    expect(label('GET', '/secret/dfsk_abc')).toBe('unmatched');
  });
});
