import { memoryIngestApi, ORIGIN, PK, SERVERS_PK } from '../../../support/ingest-memory';

/**
 * POST /ingest/v1/sessions (api/receive-sessions.ts) through the handler on in-memory ports: its answers and their
 * precedence. What the session counts is test/sessions/own-sdk-sessions.test.ts's, on DynamoDB Local and the tally.
 */
const PATH = '/ingest/v1/sessions';
const HEADERS = { authorization: `Bearer ${PK}`, origin: ORIGIN, 'content-type': 'text/plain;charset=UTF-8' };
const SESSION = { sid: '8f0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c11', init: true, started: '2026-11-21T08:59:00Z', status: 'ok', errors: 0, release: 'web@1.4.2' };
const body = (session: unknown = SESSION) => JSON.stringify({ session });

describe('POST /ingest/v1/sessions', () => {
  test('a valid session is 202 {"accepted": true}, with the CORS headers a page needs, and stores no event', async () => {
    const { reports, send } = memoryIngestApi();
    const answer = await send({ path: PATH, body: body(), headers: HEADERS });
    expect(answer).toMatchObject({ status: 202, body: { accepted: true }, headers: expect.objectContaining({ 'Access-Control-Allow-Origin': ORIGIN }) });
    expect(reports.events.size).toBe(0);
  });

  test('the key may come as ?key= (what sendBeacon can send) and a servers key may send without an Origin', async () => {
    const { send } = memoryIngestApi();
    expect((await send({ path: PATH, body: body(), headers: { origin: ORIGIN, 'content-type': 'text/plain' }, query: { key: PK } })).status).toBe(202);
    expect((await send({ path: PATH, body: body(), headers: { authorization: `Bearer ${SERVERS_PK}`, 'content-type': 'application/json' } })).status).toBe(202);
  });

  test('an invalid session is 422 listing every problem', async () => {
    const { send } = memoryIngestApi();
    const answer = await send({ path: PATH, body: body({ ...SESSION, sid: 'x', status: 'gone' }), headers: HEADERS });
    expect(answer).toEqual(
      expect.objectContaining({
        status: 422,
        body: {
          error:
            'session.sid must be a UUID like 8f0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c11 (got "x"); session.status must be one of ok, errored, crashed, exited (got "gone")',
        },
      }),
    );
    expect(await send({ path: PATH, body: '{"events": []}', headers: HEADERS })).toMatchObject({
      status: 422,
      body: { error: expect.stringMatching(/^session is required/) },
    });
  });

  test('a body that is not JSON is 400; the wrong content type 415; over 2 KiB 413', async () => {
    const { send } = memoryIngestApi();
    expect(await send({ path: PATH, body: '{"session":', headers: HEADERS })).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/not valid JSON/) },
    });
    expect((await send({ path: PATH, body: body(), headers: { ...HEADERS, 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(415);
    const big = body({ ...SESSION, release: 'r'.repeat(3000) });
    expect(await send({ path: PATH, body: big, headers: HEADERS })).toMatchObject({
      status: 413,
      body: { error: expect.stringMatching(/limit is 2048 bytes/) },
    });
  });

  test('hostile bodies are plain data: __proto__ and constructor keys, deep nesting, huge numbers get 202 or a clear 422', async () => {
    const { send } = memoryIngestApi();
    const proto = `{"__proto__": {"accepted": false}, "session": {"constructor": {"x": 1}, "__proto__": {"status": "crashed"}, ${body().slice(12, -1)}}`;
    expect(await send({ path: PATH, body: proto, headers: HEADERS })).toMatchObject({ status: 202, body: { accepted: true } });
    const deep = `{"session": ${'['.repeat(900)}${']'.repeat(900)}}`;
    expect(await send({ path: PATH, body: deep, headers: HEADERS })).toMatchObject({
      status: 422,
      body: { error: expect.stringMatching(/^session must be an object/) },
    });
    const huge = body({ ...SESSION, errors: 1e308, started: 1e308 });
    expect(await send({ path: PATH, body: huge, headers: HEADERS })).toMatchObject({
      status: 422,
      body: { error: expect.stringMatching(/session\.started must be an ISO 8601 time.*session\.errors must be a whole number/) },
    });
  });

  test('the key and the origin come before the body: 401 and 403 for an invalid session too', async () => {
    const { send } = memoryIngestApi();
    const invalid = body({ sid: 'x' });
    expect(await send({ path: PATH, body: invalid, headers: { ...HEADERS, authorization: 'Bearer dfpk_unknown' } })).toMatchObject({ status: 401 });
    expect(await send({ path: PATH, body: invalid, headers: { ...HEADERS, origin: 'https://elsewhere.example' } })).toMatchObject({ status: 403 });
  });

  test("one visitor's requests are held to the per-address limit: 429 with Retry-After", async () => {
    const { send } = memoryIngestApi();
    const answers = [];
    // The clock stands still: the visitor's allowance (at most 60 a minute) runs out.
    for (let i = 0; i < 61; i += 1) answers.push(await send({ path: PATH, body: body(), headers: HEADERS, sourceIp: '203.0.113.9' }));
    expect(answers[0]?.status).toBe(202);
    expect(answers.at(-1)).toMatchObject({
      status: 429,
      body: { error: expect.stringMatching(/^Too many requests from your address/) },
      headers: expect.objectContaining({ 'Retry-After': expect.any(String) }),
    });
  });

  test('the preflight is answered for the route', async () => {
    const { send } = memoryIngestApi();
    const answer = await send({ method: 'OPTIONS', path: PATH, headers: { origin: ORIGIN, 'access-control-request-method': 'POST' } });
    expect(answer.status).toBe(204);
  });
});
