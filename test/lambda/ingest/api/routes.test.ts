import { hashSecret } from '../../../../lambda/kernel/api-key';
import { memoryIngestApi, ORIGIN, PK, SK } from '../../../support/ingest-memory';

/** The ingest API's route table and precedence (routes.ts), through its handler on in-memory ports. */
const EVENT = { eventId: '8f0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c11', message: 'TypeError: x is undefined' };

describe('the ingest API, in its precedence', () => {
  test("an event from the key's website is stored (202)", async () => {
    const { post } = memoryIngestApi();
    expect(await post('/ingest/v1/events', { events: [EVENT] })).toMatchObject({ status: 202, body: { accepted: 1, duplicates: 0, rejected: [] } });
  });

  test('a body that is neither JSON nor text is 415 before the key is looked at', async () => {
    const { send } = memoryIngestApi();
    expect((await send({ path: '/ingest/v1/events', body: '{}', headers: { 'content-type': 'application/xml' } })).status).toBe(415);
  });

  test('no key is 401; a secret key is 401 like an unknown one, and marked exposed', async () => {
    const { keys, post } = memoryIngestApi();
    expect((await post('/ingest/v1/events', { events: [EVENT] }, { authorization: '' })).status).toBe(401);
    const leaked = await post('/ingest/v1/events', { events: [EVENT] }, { authorization: `Bearer ${SK}` });
    expect(leaked.status).toBe(401);
    expect(leaked.body.error).toMatch(/^Unknown API key/);
    expect(keys.exposureOf(hashSecret(SK))).toMatchObject({ count: 1 });
  });

  test("another website's page is 403, naming the origin", async () => {
    const { post } = memoryIngestApi();
    const refused = await post('/ingest/v1/events', { events: [EVENT] }, { origin: 'https://evil.example' });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toContain('https://evil.example');
  });

  test('a body that is not JSON is 400; too many events 422', async () => {
    const { send, post } = memoryIngestApi();
    expect(
      (await send({ path: '/ingest/v1/events', body: '{oops', headers: { origin: ORIGIN, authorization: `Bearer ${PK}`, 'content-type': 'application/json' } }))
        .status,
    ).toBe(400);
    expect((await post('/ingest/v1/events', { events: Array.from({ length: 21 }, () => EVENT) })).status).toBe(422);
  });

  test('every answer, errors included, carries the CORS headers of the page that asked', async () => {
    const { post } = memoryIngestApi();
    for (const answer of [await post('/ingest/v1/events', { events: [EVENT] }), await post('/ingest/v1/events', {}, { authorization: '' })]) {
      expect(answer.headers['Access-Control-Allow-Origin'] ?? answer.headers['access-control-allow-origin']).toBe(ORIGIN);
    }
  });

  test('a preflight is answered 204 without a key', async () => {
    const { send } = memoryIngestApi();
    expect((await send({ method: 'OPTIONS', path: '/ingest/v1/events', headers: { origin: ORIGIN } })).status).toBe(204);
  });

  test('an unknown path is 404 saying what the API takes', async () => {
    const { post } = memoryIngestApi();
    expect(await post('/ingest/v1/nothing', {})).toMatchObject({ status: 404, body: { error: expect.stringContaining('POST /ingest/v1/events') } });
  });
});
