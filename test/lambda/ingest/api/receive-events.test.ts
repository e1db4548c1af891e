import { memoryIngestApi, revokedAfterCheck } from '../../../support/ingest-memory';

/** POST /ingest/v1/events once its checks passed (api/receive-events.ts): the receipt and its refusals, through the handler on in-memory ports. */
const PATH = '/ingest/v1/events';
let sequence = 0;
const event = (message = 'TypeError: x is undefined') => {
  sequence += 1;
  return { eventId: `8f0c1a52-3b6e-4c7e-9a43-${String(sequence).padStart(12, '0')}`, message };
};

describe('POST /ingest/v1/events', () => {
  test('is 202 with the receipt: accepted, duplicates (an eventId already stored), and the invalid events by index', async () => {
    const { post } = memoryIngestApi();
    const once = event();
    await post(PATH, { events: [once] });
    expect(await post(PATH, { events: [once, event(), { eventId: 'x', message: 'm' }] })).toMatchObject({
      status: 202,
      body: { accepted: 1, duplicates: 1, rejected: [{ index: 2, error: expect.stringMatching(/^eventId must be a UUID/) }] },
    });
  });

  test('a body without one valid event is 422 naming each problem by index, and stores nothing', async () => {
    const { reports, post } = memoryIngestApi();
    const answer = await post(PATH, { events: [{ message: 'm' }, { eventId: event().eventId }] });
    expect(answer).toMatchObject({
      status: 422,
      body: { error: expect.stringMatching(/events\[0\]: eventId is required.*events\[1\]: an event needs a message/) },
    });
    expect(reports.events.size).toBe(0);
  });

  test("past the key's requests per minute it is 429 with Retry-After, naming the limit", async () => {
    const { post } = memoryIngestApi({ rateLimit: 20 });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await post(PATH, { events: [event(`E${i}: distinct`)] })).status);
    const refused = await post(PATH, { events: [event('E3: distinct')] });
    expect(statuses).toEqual([202, 202, 202]);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/^Rate limit of 20 requests per minute exceeded for this key: retry after \d+ s\.$/);
    expect(Number(refused.headers['Retry-After'])).toBeGreaterThan(0);
  });

  test("events of an error over its share are held back with 429, after the request's other events were stored", async () => {
    const { reports, post } = memoryIngestApi({ rateLimit: 20 });
    for (let i = 0; i < 2; i += 1) await post(PATH, { events: [event('TypeError: storm')] });
    const quiet = event('RangeError: quiet');
    const refused = await post(PATH, { events: [event('TypeError: storm'), quiet] });
    expect(refused).toMatchObject({ status: 429, body: { error: expect.stringMatching(/^1 of these events .* the other 1 were stored/) } });
    expect(refused.headers['Retry-After']).toBeDefined();
    expect([...reports.events.values()].some((stored) => stored.eventId === quiet.eventId)).toBe(true);
  });

  test('a key revoked while the request was under way is 401 saying so, and nothing is stored', async () => {
    const { reports, post } = memoryIngestApi({ keys: revokedAfterCheck });
    expect(await post(PATH, { events: [event()] })).toMatchObject({ status: 401, body: { error: expect.stringMatching(/has been revoked/) } });
    expect(reports.events.size).toBe(0);
  });
});
