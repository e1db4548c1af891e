import { OpenApiChecker, type CheckedResponse } from '../../openapi/response-check';

/**
 * The check every HTTP test's answer goes through (send, test/support/http.ts),
 * on answers made up here: each thing the document does not describe is caught.
 */
const checker = OpenApiChecker.load();

const CONTACT = {
  id: 'ct_0123456789abcdef',
  factoryId: 'fac_demo',
  email: 'ada@example.com',
  source: 'api',
  createdAt: '2026-11-21T23:51:11.735Z',
  updatedAt: '2026-11-21T23:51:11.735Z',
};
const SERVICE_HEADERS = {
  'content-type': 'application/json',
  'content-length': '10',
  'x-request-id': 'c0ffee',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  // Every answer made up below comes after the key check, which these say the outcome of.
  'ratelimit-policy': '"per-key";q=30000;w=60',
  ratelimit: '"per-key";r=2999;t=1',
};

function answer(status: number, body: unknown, headers: Record<string, string> = {}, omit: string[] = []): CheckedResponse {
  const all: Record<string, string> = { ...SERVICE_HEADERS, ...headers };
  for (const name of omit) delete all[name];
  return { status, headers: all, text: body === undefined ? '' : JSON.stringify(body) };
}

const read = { method: 'GET', path: '/api/v1/contacts/ct_0123456789abcdef' };
const upsert = { method: 'POST', path: '/api/v1/contacts' };

describe('the OpenAPI response check', () => {
  test('passes an answer the document describes', () => {
    expect(checker.problems(read, answer(200, { contact: CONTACT }))).toEqual([]);
    expect(checker.problems(upsert, answer(201, { contact: CONTACT, created: true }))).toEqual([]);
  });

  test('fails a body field the document does not describe', () => {
    expect(checker.problems(read, answer(200, { contact: { ...CONTACT, nickname: 'x' } }))).toEqual([
      expect.stringMatching(/must NOT have additional properties/),
    ]);
  });

  test('fails a body that lacks a required field or has a wrong type', () => {
    expect(checker.problems(upsert, answer(201, { contact: CONTACT }))).toEqual([expect.stringMatching(/must have required property 'created'/)]);
    expect(checker.problems(read, answer(200, { contact: { ...CONTACT, source: 'web' } }))).toEqual([
      expect.stringMatching(/must be equal to one of the allowed values/),
    ]);
  });

  test('fails an error body that is not {"error": string}', () => {
    expect(checker.problems(read, answer(404, { error: 'no', detail: 'x' }))).toEqual([expect.stringMatching(/additional properties/)]);
    expect(checker.problems(read, answer(404, { message: 'no' }))).toEqual([expect.stringMatching(/required property 'error'/)]);
  });

  test('fails a status the document does not list for the operation', () => {
    expect(checker.problems(read, answer(422, { error: 'x' }))).toEqual([
      expect.stringMatching(/status 422 is not documented for GET \/api\/v1\/contacts\/\{id\}/),
    ]);
    expect(checker.problems(read, answer(500, { error: 'x' }))).toEqual([expect.stringMatching(/status 500 is not documented/)]);
  });

  test('fails a header the document does not describe, and a missing required one', () => {
    expect(checker.problems(read, answer(200, { contact: CONTACT }, { 'x-powered-by': 'middy' }))).toEqual([
      expect.stringMatching(/header x-powered-by is not documented/),
    ]);
    expect(checker.problems(read, answer(200, { contact: CONTACT }, {}, ['cache-control']))).toEqual([
      expect.stringMatching(/required header Cache-Control is missing/),
    ]);
    expect(checker.problems(read, answer(200, { contact: CONTACT }, { 'access-control-allow-origin': '*' }))).toEqual([
      expect.stringMatching(/header access-control-allow-origin is not documented/),
    ]);
  });

  test('holds the rate-limit fields to the draft form, required after the key check, absent on a 401', () => {
    expect(checker.problems(read, answer(200, { contact: CONTACT }, {}, ['ratelimit']))).toEqual([
      expect.stringMatching(/required header RateLimit is missing/),
    ]);
    expect(checker.problems(read, answer(200, { contact: CONTACT }, { ratelimit: 'remaining=5' }))).toEqual([expect.stringMatching(/header RateLimit/)]);
    expect(checker.problems(upsert, answer(429, { error: 'slow down' }, { 'retry-after': '3', ratelimit: '"per-key";r=0;t=3' }))).toEqual([]);
    const unauthorized = { 'www-authenticate': 'Bearer realm="contacts"' };
    expect(checker.problems(read, answer(401, { error: 'no key' }, unauthorized, ['ratelimit', 'ratelimit-policy']))).toEqual([]);
    expect(checker.problems(read, answer(401, { error: 'no key' }, unauthorized))).toEqual([
      expect.stringMatching(/header ratelimit-policy is not documented/),
      expect.stringMatching(/header ratelimit is not documented/),
    ]);
  });

  test('checks header values against their schemas', () => {
    expect(checker.problems(upsert, answer(429, { error: 'slow down' }, { 'retry-after': '3' }))).toEqual([]);
    expect(checker.problems(upsert, answer(429, { error: 'slow down' }, { 'retry-after': 'soon' }))).toEqual([expect.stringMatching(/header Retry-After/)]);
    expect(checker.problems(upsert, answer(429, { error: 'slow down' }))).toEqual([expect.stringMatching(/required header Retry-After is missing/)]);
  });

  test('holds a request no operation matches to x-unmatched-requests: 405 with Allow, 404 for another path', () => {
    const put = { method: 'PUT', path: '/api/v1/contacts' };
    expect(checker.problems(put, answer(405, { error: 'no' }, { allow: 'GET, POST' }))).toEqual([]);
    expect(checker.problems(put, answer(405, { error: 'no' }))).toEqual([expect.stringMatching(/required header Allow is missing/)]);
    expect(checker.problems({ method: 'GET', path: '/nowhere' }, answer(404, { error: 'no' }))).toEqual([]);
    expect(checker.problems({ method: 'GET', path: '/nowhere' }, answer(200, { contact: CONTACT }))).toEqual([
      expect.stringMatching(/status 200 is not documented/),
    ]);
  });

  test('holds an answer without X-Request-Id to x-gateway-responses', () => {
    const gateway = { 'content-type': 'application/json' };
    expect(checker.problems(upsert, { status: 413, headers: gateway, text: '{"error":"too large"}' })).toEqual([]);
    expect(checker.problems(read, { status: 431, headers: gateway, text: '{"error":"too large"}' })).toEqual([]);
    expect(checker.problems(read, { status: 200, headers: gateway, text: JSON.stringify({ contact: CONTACT }) })).toEqual([
      expect.stringMatching(/status 200 is not documented .*without X-Request-Id/),
    ]);
  });

  test('expects no body in an answer to HEAD, and JSON elsewhere', () => {
    const head = { method: 'HEAD', path: '/api/v1/contacts' };
    expect(checker.problems(head, { ...answer(405, undefined, { allow: 'GET, POST' }) })).toEqual([]);
    expect(checker.problems(head, { ...answer(405, { error: 'no' }, { allow: 'GET, POST' }) })).toEqual([
      expect.stringMatching(/a body the document does not describe/),
    ]);
    // The HTTP layer refuses a request it could not parse with its error body, whatever method it read.
    expect(checker.problems(head, { status: 431, headers: { 'content-type': 'application/json' }, text: '{"error":"too large"}' })).toEqual([]);
    expect(checker.problems(read, { ...answer(404, undefined), text: 'not json' })).toEqual([expect.stringMatching(/not JSON/)]);
    expect(checker.problems(read, answer(404, { error: 'x' }, { 'content-type': 'text/html' }))).toEqual([
      expect.stringMatching(/Content-Type "text\/html" is not documented/),
    ]);
  });
});
