import { readMapRef } from '../upload/map-ref';
import type { UploadRequest } from '../upload/upload-map';
import type { BodyReader } from '../../../infrastructure/http/pipeline';
import { apiError } from '../../../infrastructure/http/responses';
import { parseJsonBody } from '../../../infrastructure/http/steps/json-body';

const SHA256 = /^[0-9a-f]{64}$/;

const REQUEST_EXAMPLE = '{"ref": {"debugId": "…"}, "sha256": "<64 hex>", "bytes": 1234}';
const COMPLETE_EXAMPLE = '{"ref": {"debugId": "…"}, "sha256": "<64 hex>"}';

function fieldsOf(event: Parameters<BodyReader<unknown>['read']>[0], example: string): Record<string, unknown> {
  const parsed = parseJsonBody(event, example);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw apiError(422, `The body must be a JSON object, like ${example}.`);
  return parsed as Record<string, unknown>;
}

function refAndSha(fields: Record<string, unknown>): Omit<UploadRequest, 'bytes'> {
  const ref = readMapRef(fields.ref);
  if ('error' in ref) throw apiError(422, ref.error);
  if (typeof fields.sha256 !== 'string' || !SHA256.test(fields.sha256)) throw apiError(422, "sha256 must be the map's sha256 as 64 lowercase hex digits.");
  return { ref, sha256: fields.sha256 };
}

/** POST /sourcemaps/v1/uploads: which map, its sha256 and size (read by hand: three fields). */
export const uploadRequestBody: BodyReader<UploadRequest> = {
  read: (event) => {
    const fields = fieldsOf(event, REQUEST_EXAMPLE);
    const { bytes } = fields;
    if (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes < 1)
      throw apiError(422, "bytes must be the map's size in bytes, a positive integer.");
    return { ...refAndSha(fields), bytes };
  },
};

/** POST /sourcemaps/v1/uploads/{uploadId}/complete: the same ref and sha256 as announced. */
export const completeBody: BodyReader<Omit<UploadRequest, 'bytes'>> = {
  read: (event) => refAndSha(fieldsOf(event, COMPLETE_EXAMPLE)),
};
