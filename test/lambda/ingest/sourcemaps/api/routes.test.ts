import { createHash } from 'node:crypto';
import { createSourceMapsHandler } from '../../../../../lambda/ingest/sourcemaps/api/routes';
import { MemoryKeyAuthorizer } from '../../../../../lambda/infrastructure/memory/memory-key-authorizer';
import { hashSecret } from '../../../../../lambda/kernel/api-key';
import { MemoryMapUploads } from '../../../../support/map-uploads';
import { lambdaContext, proxyEvent } from '../../../../support/events';
import { tinyBuild } from '../../../../support/tiny-build';

/**
 * The source maps API through its handler on in-memory ports: a secret key's
 * guards, then the two steps. Over HTTP with the S3 adapter: test/sourcemaps/upload-api.test.ts.
 */
const SECRET = `dfsk_${'m'.repeat(43)}`;
const ID = '3d11fdbb-678d-44ec-a3b6-b8f35ffebdb2';
const MAP = JSON.stringify({ ...JSON.parse(tinyBuild().map), debugId: ID });
const SHA = createHash('sha256').update(MAP).digest('hex');

function api() {
  const keys = new MemoryKeyAuthorizer();
  keys.issue(hashSecret(SECRET), { factoryId: 'fac_maps', keyId: 'key_maps', rateLimit: 100 });
  const uploads = new MemoryMapUploads();
  const handler = createSourceMapsHandler({ keys, uploads, now: () => Date.parse('2026-11-21T09:00:00Z') });
  const post = async (path: string, body: unknown, headers: Record<string, string> = { authorization: `Bearer ${SECRET}` }) => {
    const answer = await handler(
      proxyEvent({ httpMethod: 'POST', path, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }),
      lambdaContext(),
    );
    return { status: answer.statusCode, body: JSON.parse(answer.body) as Record<string, any> };
  };
  return { uploads, post };
}

describe('the source maps API', () => {
  test("announce, PUT, complete: the map is stored for the key's factory; announced again, already stored", async () => {
    const { uploads, post } = api();
    const announced = await post('/sourcemaps/v1/uploads', { ref: { debugId: ID }, sha256: SHA, bytes: MAP.length });
    expect(announced).toMatchObject({
      status: 201,
      body: { status: 'upload', uploadId: expect.stringMatching(/^[0-9a-f]{32}$/), complete: expect.stringMatching(/\/complete$/) },
    });
    uploads.put('fac_maps', announced.body.uploadId, MAP);
    expect(await post(`/sourcemaps/v1/uploads/${announced.body.uploadId}/complete`, { ref: { debugId: ID }, sha256: SHA })).toEqual({
      status: 201,
      body: { status: 'stored', sha256: SHA, bytes: MAP.length },
    });
    expect((await post('/sourcemaps/v1/uploads', { ref: { debugId: ID }, sha256: SHA, bytes: MAP.length })).status).toBe(200);
  });

  test('a refused map is a 422 naming why; an upload id of nothing a 404', async () => {
    const { uploads, post } = api();
    const noDebugId = '{"version":3,"sources":[],"mappings":""}';
    const sha256 = createHash('sha256').update(noDebugId).digest('hex');
    const announced = await post('/sourcemaps/v1/uploads', { ref: { debugId: ID }, sha256, bytes: noDebugId.length });
    uploads.put('fac_maps', announced.body.uploadId, noDebugId);
    const refused = await post(`/sourcemaps/v1/uploads/${announced.body.uploadId}/complete`, { ref: { debugId: ID }, sha256 });
    expect(refused).toMatchObject({ status: 422, body: { error: expect.stringMatching(/^The map was refused and not stored: the map carries no debugId/) } });
    expect((await post('/sourcemaps/v1/uploads/not-an-id/complete', { ref: { debugId: ID }, sha256: SHA })).status).toBe(404);
  });

  test("a secret key is required; a page's Origin is refused first; a map too large is 413", async () => {
    const { post } = api();
    expect((await post('/sourcemaps/v1/uploads', {}, {})).status).toBe(401);
    expect((await post('/sourcemaps/v1/uploads', {}, { origin: 'https://evil.example', authorization: `Bearer ${SECRET}` })).status).toBe(403);
    expect((await post('/sourcemaps/v1/uploads', { ref: { debugId: ID }, sha256: SHA, bytes: 60 * 1024 * 1024 })).status).toBe(413);
  });
});
