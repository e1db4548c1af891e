import { createHash } from 'node:crypto';
import { completeUploadOperation } from '../../../../../lambda/ingest/sourcemaps/api/complete-upload';
import { newRequestState } from '../../../../../lambda/infrastructure/http/request-state';
import { MemoryMapUploads } from '../../../../support/map-uploads';
import { errorMessage, proxyEvent } from '../../../../support/events';
import { tinyBuild } from '../../../../support/tiny-build';

const ID = '3d11fdbb-678d-44ec-a3b6-b8f35ffebdb2';
const MAP = JSON.stringify({ ...JSON.parse(tinyBuild().map), debugId: ID });
const SHA = createHash('sha256').update(MAP).digest('hex');
const UPLOAD = 'e'.repeat(32);
const ANNOUNCED = { ref: { kind: 'debugId' as const, debugId: ID }, sha256: SHA, bytes: MAP.length };
const state = () => ({ ...newRequestState({}), caller: { factoryId: 'fac_maps', keyId: 'key_maps' } });
const complete = (uploads: MemoryMapUploads, uploadId = UPLOAD, request = state()) =>
  completeUploadOperation(uploads)({
    event: proxyEvent({ pathParameters: { uploadId } }),
    state: request,
    body: { ref: { kind: 'debugId', debugId: ID }, sha256: SHA },
  });

describe('POST /sourcemaps/v1/uploads/{uploadId}/complete, once its body is read', () => {
  test('201 when it stored the map now, 200 when it was stored already; the log line notes which and the size', async () => {
    const uploads = new MemoryMapUploads();
    await uploads.announce('fac_maps', UPLOAD, ANNOUNCED);
    uploads.put('fac_maps', UPLOAD, MAP);
    const first = state();
    expect((await complete(uploads, UPLOAD, first)).statusCode).toBe(201);
    expect(first.logFields).toEqual({ mapStored: 'stored', mapBytes: MAP.length });
    expect((await complete(uploads)).statusCode).toBe(200);
  });

  test('an id that is not one the API gives, or of nothing PUT, is 404; a refused map 422', async () => {
    const uploads = new MemoryMapUploads();
    await expect(complete(uploads, 'nope')).rejects.toMatchObject({ statusCode: 404 });
    await expect(complete(uploads)).rejects.toMatchObject({ statusCode: 404 });
    await uploads.announce('fac_maps', UPLOAD, ANNOUNCED);
    uploads.put('fac_maps', UPLOAD, `${MAP} `);
    const refusal = await complete(uploads).catch((error: unknown) => error);
    expect([(refusal as { statusCode: number }).statusCode, errorMessage(refusal)]).toEqual([
      422,
      expect.stringMatching(/^The map was refused and not stored: /),
    ]);
  });
});
