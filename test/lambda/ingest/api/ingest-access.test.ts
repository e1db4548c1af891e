import { hashSecret } from '../../../../lambda/kernel/api-key';
import { valuesOf } from '../../../../lambda/ingest/api/ingest-access';
import { memoryIngestApi, ORIGIN, PK, SERVERS_PK } from '../../../support/ingest-memory';

/** Who may report (ingest-access.ts), through the ingest API's handler on in-memory ports: key 401, origin 403, per-address limits 429. */
const EVENT = { eventId: '8f0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c11', message: 'TypeError: x is undefined' };
const PATH = '/ingest/v1/events';
const json = { 'content-type': 'application/json' };
const stored = (reports: ReturnType<typeof memoryIngestApi>['reports']) => [...reports.events.values()];

describe('the key of a request', () => {
  test.each([
    ['no key', {}, {}, /^Missing API key/],
    ['a key that is not a bearer token', { authorization: `Basic ${PK}` }, {}, /must be "Bearer <publishable key>"/],
    ['the Authorization header and ?key= naming two keys', { authorization: `Bearer ${PK}` }, { key: SERVERS_PK }, /differ: send one key/],
    ['the key twice in ?key=', {}, { key: [PK, PK] }, /^Send the key once/],
  ])('%s is 401 in its own words, with the Bearer challenge', async (_case, headers, query, message) => {
    const { send } = memoryIngestApi();
    const answer = await send({ path: PATH, body: JSON.stringify({ events: [EVENT] }), headers: { origin: ORIGIN, ...json, ...headers }, query });
    expect(answer).toMatchObject({ status: 401, body: { error: expect.stringMatching(message) } });
    expect(answer.headers['WWW-Authenticate']).toBe('Bearer realm="ingest"');
  });

  test('the key in ?key= alone is taken (what navigator.sendBeacon can send)', async () => {
    const { send } = memoryIngestApi();
    const answer = await send({
      path: PATH,
      body: JSON.stringify({ events: [EVENT] }),
      headers: { origin: ORIGIN, 'content-type': 'text/plain' },
      query: { key: PK },
    });
    expect(answer.status).toBe(202);
  });

  test('a revoked key is 401 saying it was revoked', async () => {
    const { keys, post } = memoryIngestApi();
    keys.revoke(hashSecret(PK));
    expect(await post(PATH, { events: [EVENT] })).toMatchObject({ status: 401, body: { error: expect.stringMatching(/has been revoked/) } });
  });
});

describe('the origin of a request', () => {
  test('a page that sends no Origin is 403 with a key for websites, pointing at --servers', async () => {
    const { post } = memoryIngestApi();
    expect(await post(PATH, { events: [EVENT] }, { origin: undefined as unknown as string })).toMatchObject({
      status: 403,
      body: { error: expect.stringMatching(/^Missing Origin header.*--servers/) },
    });
  });

  test('a key issued for servers too may send without an Origin, and its events are recorded as from "server"', async () => {
    const { reports, send } = memoryIngestApi();
    const answer = await send({ path: PATH, body: JSON.stringify({ events: [EVENT] }), headers: { authorization: `Bearer ${SERVERS_PK}`, ...json } });
    expect(answer.status).toBe(202);
    expect(stored(reports)[0]?.origin).toBe('server');
  });

  test("an origin is compared as the browser writes it: the key's website with a default port passes, and is stored as normalized", async () => {
    const { reports, post } = memoryIngestApi();
    expect((await post(PATH, { events: [EVENT] }, { origin: 'HTTPS://SHOP.example.com:443' })).status).toBe(202);
    expect(stored(reports)[0]?.origin).toBe(ORIGIN);
  });
});

describe('the per-address limits', () => {
  test('one address past its burst is 429 with Retry-After; another address with the same key still passes', async () => {
    const { post, send } = memoryIngestApi();
    const from = (sourceIp: string) =>
      send({ path: PATH, body: JSON.stringify({ events: [EVENT] }), headers: { origin: ORIGIN, authorization: `Bearer ${PK}`, ...json }, sourceIp });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i += 1) statuses.push((await from('203.0.113.7')).status);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 202, 202, 429]);
    const refused = await from('203.0.113.7');
    expect(refused.body.error).toMatch(/^Too many requests from your address with this key: retry after \d+ s\.$/);
    expect(Number(refused.headers['Retry-After'])).toBeGreaterThan(0);
    expect((await from('203.0.113.8')).status).toBe(202);
    expect((await post(PATH, { events: [EVENT] })).status).toBe(202);
  });
});

describe('what a report records of its sender', () => {
  test('the user agent, cleaned onto one line; a blank one is not recorded', async () => {
    const { reports, post } = memoryIngestApi();
    await post(PATH, { events: [EVENT] }, { 'user-agent': 'Mozilla/5.0\n(X11)' });
    await post(PATH, { events: [{ ...EVENT, eventId: '9f0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c11' }] }, { 'user-agent': '   ' });
    const [first, second] = stored(reports);
    expect(first?.userAgent).not.toMatch(/\n/);
    expect(first?.userAgent).toMatch(/^Mozilla\/5\.0\s+\(X11\)$/);
    expect(second?.userAgent).toBeUndefined();
  });

  test("with the day's salt, an event carries its visitor's hash; when the salt cannot be read, it is stored without one", async () => {
    const salted = memoryIngestApi({ visitorSalts: { saltFor: async () => new Uint8Array(32).fill(7) } });
    await salted.post(PATH, { events: [EVENT] });
    expect(stored(salted.reports)[0]?.visitor).toMatch(/^[0-9a-z]{8}$/i);

    const unsalted = memoryIngestApi({
      visitorSalts: {
        saltFor: async () => {
          throw new Error('salt table down');
        },
      },
    });
    expect((await unsalted.post(PATH, { events: [EVENT] })).status).toBe(202);
    expect(stored(unsalted.reports)[0]?.visitor).toBeUndefined();
  });
});

describe('valuesOf', () => {
  test('every value of a name, repeats included: the multi-value map when it has them, else the single one, else none', () => {
    expect(valuesOf({ key: 'b' }, { key: ['a', 'b'] }, 'key')).toEqual(['a', 'b']);
    expect(valuesOf({ key: 'b' }, { key: [] }, 'key')).toEqual(['b']);
    expect(valuesOf(null, undefined, 'key')).toEqual([]);
  });
});
