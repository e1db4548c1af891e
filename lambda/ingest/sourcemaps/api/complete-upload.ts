import type { MapUploads } from '../upload/ports';
import { completeUpload, type UploadRequest } from '../upload/upload-map';
import type { Operation } from '../../../infrastructure/http/pipeline';
import { callerOf, note } from '../../../infrastructure/http/request-state';
import { apiError, json } from '../../../infrastructure/http/responses';

const UPLOAD_ID = /^[0-9a-f]{32}$/;

/**
 * POST /sourcemaps/v1/uploads/{uploadId}/complete (docs/source-maps.md#the-upload-api): 201 stored, 200 stored
 * before (a repeat), 404 nothing uploaded, 422 refused with the reason (the upload is then removed).
 */
export function completeUploadOperation(uploads: MapUploads): Operation<Omit<UploadRequest, 'bytes'>> {
  return async ({ event, state, body }) => {
    const uploadId = event.pathParameters?.uploadId ?? '';
    if (!UPLOAD_ID.test(uploadId)) throw apiError(404, 'No such upload: the id is the uploadId the upload request answered.');
    const answer = await completeUpload(uploads, callerOf(state).factoryId, uploadId, body);
    switch (answer.outcome) {
      case 'missing':
        throw apiError(404, `No such upload: ${answer.reason}.`);
      case 'refused':
        note(state, { mapStored: 'refused' });
        throw apiError(422, `The map was refused and not stored: ${answer.reason}.`);
      case 'stored':
        note(state, { mapStored: answer.already ? 'already' : 'stored', mapBytes: answer.info.bytes });
        return json(answer.already ? 200 : 201, { status: 'stored', sha256: answer.info.sha256, bytes: answer.info.bytes });
    }
  };
}
