import middy from '@middy/core';
import { corsHeaders } from '../../../../../lambda/ingest/api/cors-headers';
import { noCorsHeaders } from '../../../../../lambda/contacts/api/no-cors-headers';
import { responseHeaders } from '../../../../../lambda/infrastructure/http/middleware/response-headers';
import { context, proxyEvent } from '../../../../support/events';

const answer = async () => ({
  statusCode: 200,
  headers: { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*', 'access-control-max-age': 60, 'Access-Control-Allow-Credentials': 'true' },
  body: '{}',
});

describe('responseHeaders', () => {
  test('adds no-store and nosniff', async () => {
    const res = await middy()
      .use(responseHeaders())
      .handler(async () => ({ statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: '{}' }))({}, context());
    expect(res.headers).toEqual({ 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
  });
});

describe('noCorsHeaders (the contacts API)', () => {
  test('strips any Access-Control-* header', async () => {
    const res = await middy().use(responseHeaders()).use(noCorsHeaders()).handler(answer)({}, context());
    expect(res.headers).toEqual({ 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
  });
});

describe('corsHeaders (the ingest API)', () => {
  const serve = (headers: Record<string, string>, method = 'POST') =>
    middy().use(corsHeaders()).handler(answer)(proxyEvent({ httpMethod: method, headers }), context());

  test('echoes the Origin, never *, never credentials, with Vary and the exposed headers', async () => {
    const res = await serve({ origin: 'https://app.example.com' });
    expect(res.headers).toEqual({
      'Content-Type': 'application/json',
      'access-control-max-age': 60,
      Vary: 'Origin',
      'Access-Control-Allow-Origin': 'https://app.example.com',
      'Access-Control-Expose-Headers': 'Retry-After, X-Request-Id',
    });
  });

  test('gives no origin header without an Origin, or for one that is no origin', async () => {
    for (const headers of [{}, { origin: 'https://a.com, https://b.com' }, { origin: 'https://a.com/path' }] as Record<string, string>[]) {
      const res = await serve(headers);
      expect(res.headers['Access-Control-Allow-Origin']).toBeUndefined();
      expect(res.headers['Access-Control-Allow-Credentials']).toBeUndefined();
      expect(res.headers.Vary).toBe('Origin');
    }
  });
});
