import { requestUploadOperation } from '../../../../../lambda/ingest/sourcemaps/api/request-upload';
import { newRequestState } from '../../../../../lambda/infrastructure/http/request-state';
import { MemoryMapUploads } from '../../../../support/map-uploads';
import { proxyEvent } from '../../../../support/events';

const state = () => ({ ...newRequestState({}), caller: { factoryId: 'fac_maps', keyId: 'key_maps' } });
const ID = '3d11fdbb-678d-44ec-a3b6-b8f35ffebdb2';

describe('POST /sourcemaps/v1/uploads, once its body is read', () => {
  test("201 with a fresh upload id, where to PUT, and where to complete it, in the caller's factory", async () => {
    const uploads = new MemoryMapUploads();
    const answer = await requestUploadOperation(uploads)({
      event: proxyEvent(),
      state: state(),
      body: { ref: { kind: 'debugId', debugId: ID }, sha256: 'a'.repeat(64), bytes: 10 },
    });
    const body = JSON.parse(answer.body);
    expect(answer.statusCode).toBe(201);
    expect(body.upload.url).toContain('/fac_maps/');
    expect(body.complete).toBe(`/sourcemaps/v1/uploads/${body.uploadId}/complete`);
  });

  test('200 and nothing to PUT when the same bytes are stored; the log line says so', async () => {
    const uploads = new MemoryMapUploads();
    await uploads.store('fac_maps', { kind: 'debugId', debugId: ID }, new Uint8Array(10), { sha256: 'a'.repeat(64), bytes: 10 });
    const request = state();
    const answer = await requestUploadOperation(uploads)({
      event: proxyEvent(),
      state: request,
      body: { ref: { kind: 'debugId', debugId: ID }, sha256: 'a'.repeat(64), bytes: 10 },
    });
    expect([answer.statusCode, request.logFields]).toEqual([200, { mapStored: 'already' }]);
  });
});
