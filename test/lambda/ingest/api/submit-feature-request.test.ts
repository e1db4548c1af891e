import { memoryIngestApi, revokedAfterCheck } from '../../../support/ingest-memory';

/** POST /ingest/v1/feature-requests once its checks passed (api/submit-feature-request.ts), through the handler on in-memory ports. */
const PATH = '/ingest/v1/feature-requests';
const REQUEST = { requestId: '8f0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c11', title: 'Dark mode', reporter: { email: 'ada@example.com' } };

describe('POST /ingest/v1/feature-requests', () => {
  test('a new requestId is 201 created; the same again is 200 with the request as first stored', async () => {
    const { post } = memoryIngestApi();
    const first = await post(PATH, REQUEST);
    const again = await post(PATH, { ...REQUEST, title: 'Light mode' });
    expect(first).toMatchObject({ status: 201, body: { created: true, featureRequest: { id: expect.stringMatching(/^fr_/), title: 'Dark mode' } } });
    expect(again).toMatchObject({ status: 200, body: { created: false, featureRequest: first.body.featureRequest } });
  });

  test('the answer never carries the reporter or where the request came from', async () => {
    const { post } = memoryIngestApi();
    expect(JSON.stringify((await post(PATH, REQUEST)).body)).not.toMatch(/ada@example\.com|shop\.example\.com/);
  });

  test('a body that is not a feature request is 422, every problem listed', async () => {
    const { post } = memoryIngestApi();
    expect(await post(PATH, { title: 'x' })).toMatchObject({
      status: 422,
      body: { error: expect.stringMatching(/requestId is required.*title must have at least 3/) },
    });
  });

  test("past the key's requests per minute it is 429 with Retry-After", async () => {
    const { post } = memoryIngestApi({ rateLimit: 20 });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await post(PATH, { ...REQUEST, requestId: `8f0c1a52-3b6e-4c7e-9a43-00000000000${i}` })).status);
    expect(statuses).toEqual([201, 201, 201, 429]);
  });

  test('a key revoked while the request was under way is 401 saying so, and nothing is stored', async () => {
    const { reports, post } = memoryIngestApi({ keys: revokedAfterCheck });
    expect(await post(PATH, REQUEST)).toMatchObject({ status: 401, body: { error: expect.stringMatching(/has been revoked/) } });
    expect(reports.featureRequests.size).toBe(0);
  });
});
