import { randomBytes } from 'node:crypto';
import type { MapUploads } from '../upload/ports';
import { requestUpload, type UploadRequest } from '../upload/upload-map';
import type { Operation } from '../../../infrastructure/http/pipeline';
import { callerOf, note } from '../../../infrastructure/http/request-state';
import { apiError, json } from '../../../infrastructure/http/responses';
import { API_PREFIXES } from '../../../infrastructure/http/prefixes';

/** POST /sourcemaps/v1/uploads (docs/source-maps.md#the-upload-api): 200 already stored, 201 a URL to PUT the map to, 413 too large. */
export function requestUploadOperation(uploads: MapUploads, now: () => number = Date.now): Operation<UploadRequest> {
  return async ({ state, body }) => {
    const answer = await requestUpload(uploads, callerOf(state).factoryId, body, () => randomBytes(16).toString('hex'), now());
    switch (answer.outcome) {
      case 'too-large':
        throw apiError(413, `Refused: ${answer.reason}.`);
      case 'stored':
        note(state, { mapStored: 'already' });
        return json(200, { status: 'stored', sha256: answer.info.sha256, bytes: answer.info.bytes });
      case 'upload':
        return json(201, {
          status: 'upload',
          uploadId: answer.uploadId,
          upload: answer.target,
          complete: `${API_PREFIXES.sourcemaps}uploads/${answer.uploadId}/complete`,
        });
    }
  };
}
