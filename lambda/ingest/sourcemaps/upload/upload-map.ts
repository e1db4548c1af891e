import { createHash } from 'node:crypto';
import { MAP_REFRESH_DAYS, MAX_MAP_BYTES } from '../limits';
import type { MapRef } from '../ports';
import { checkMap } from './check-map';
import type { MapUploads, StoredMapInfo, UploadTarget } from './ports';

/** An upload's announcement: which map, and the bytes the uploader is about to send. */
export interface UploadRequest {
  ref: MapRef;
  sha256: string;
  bytes: number;
}

export type RequestOutcome =
  | { outcome: 'stored'; info: StoredMapInfo }
  | { outcome: 'upload'; uploadId: string; target: UploadTarget }
  | { outcome: 'too-large'; reason: string };

export type CompleteOutcome =
  | { outcome: 'stored'; info: StoredMapInfo; already: boolean }
  | { outcome: 'missing'; reason: string }
  | { outcome: 'refused'; reason: string };

const tooLarge = (bytes: number) => `the map is ${bytes.toLocaleString('en-US')} bytes, over the limit of ${MAX_MAP_BYTES.toLocaleString('en-US')} bytes`;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The same bytes, stored recently enough that they are not near their expiry. */
const fresh = (stored: StoredMapInfo | undefined, sha256: string, nowMs: number): stored is StoredMapInfo =>
  stored?.sha256 === sha256 && (stored.storedAtMs === undefined || nowMs - stored.storedAtMs < MAP_REFRESH_DAYS * DAY_MS);

/**
 * Step one of an upload: nothing to send when the same bytes are already
 * stored for this ref (a repeat is a no-op; unless they were stored so long
 * ago that they near their expiry: then they are sent again), a refusal when
 * the announced size is over the limit, else a place to PUT the bytes to.
 */
export async function requestUpload(
  uploads: MapUploads,
  factoryId: string,
  request: UploadRequest,
  newUploadId: () => string,
  nowMs: number = Date.now(),
): Promise<RequestOutcome> {
  if (request.bytes > MAX_MAP_BYTES) return { outcome: 'too-large', reason: tooLarge(request.bytes) };
  const stored = await uploads.stored(factoryId, request.ref);
  if (fresh(stored, request.sha256, nowMs)) return { outcome: 'stored', info: stored };
  const uploadId = newUploadId();
  await uploads.announce(factoryId, uploadId, request);
  return { outcome: 'upload', uploadId, target: await uploads.target(factoryId, uploadId, request) };
}

/** The ref as a message names it. */
const named = (ref: MapRef): string => (ref.kind === 'debugId' ? `debug id ${ref.debugId}` : `release ${JSON.stringify(ref.release)} path ${ref.path}`);

/**
 * Step two: the bytes PUT to the pending place are checked against what the
 * upload was announced for (docs/source-maps.md#the-upload-api): the ref the
 * completion names must be the announced one (an upload URL stores the map of
 * the ref it was issued for, never another's), the size and sha256 the
 * announced ones, then a sane source map, the one of that ref; stored under
 * it, or refused with the reason. Either way the pending bytes and the
 * announcement are removed, so an upload completes once, and a refused map
 * changes nothing. Completing again answers the stored map.
 */
export async function completeUpload(
  uploads: MapUploads,
  factoryId: string,
  uploadId: string,
  request: Omit<UploadRequest, 'bytes'>,
): Promise<CompleteOutcome> {
  const announced = await uploads.announcement(factoryId, uploadId);
  if (!announced) {
    const stored = await uploads.stored(factoryId, request.ref);
    if (stored?.sha256 === request.sha256) return { outcome: 'stored', info: stored, already: true };
    return { outcome: 'missing', reason: `no upload ${uploadId} is waiting (it was completed, or never requested, or expired after a day)` };
  }
  const refuse = async (reason: string): Promise<CompleteOutcome> => {
    await uploads.discard(factoryId, uploadId);
    return { outcome: 'refused', reason };
  };
  if (refKeyOf(announced.ref) !== refKeyOf(request.ref)) {
    return refuse(`upload ${uploadId} was requested for ${named(announced.ref)}, not ${named(request.ref)}: request an upload for each map`);
  }
  if (announced.sha256 !== request.sha256) return refuse(`upload ${uploadId} was requested for sha256 ${announced.sha256}, not ${request.sha256}`);
  const bytes = await uploads.pendingBytes(factoryId, uploadId);
  if (bytes === undefined)
    return { outcome: 'missing', reason: `nothing was uploaded for upload ${uploadId} (PUT the map to the URL first; uploads expire after a day)` };
  if (bytes > MAX_MAP_BYTES) return refuse(tooLarge(bytes));
  if (bytes !== announced.bytes) return refuse(`the bytes uploaded are ${bytes} bytes long, not the ${announced.bytes} announced`);
  const body = await uploads.readPending(factoryId, uploadId);
  if (!body) return { outcome: 'missing', reason: `the upload ${uploadId} is gone (completed or expired)` };
  const sha256 = createHash('sha256').update(body).digest('hex');
  if (sha256 !== announced.sha256) return refuse(`the bytes uploaded have sha256 ${sha256}, not the ${announced.sha256} announced`);
  const refusal = checkMap(new TextDecoder('utf-8', { fatal: false }).decode(body), announced.ref);
  if (refusal) return refuse(refusal);
  const info = { sha256, bytes: body.byteLength };
  await uploads.store(factoryId, announced.ref, body, info);
  await uploads.discard(factoryId, uploadId);
  return { outcome: 'stored', info, already: false };
}

/** One text per ref, to compare two. */
const refKeyOf = (ref: MapRef): string => (ref.kind === 'debugId' ? `debugId\n${ref.debugId}` : `release\n${ref.release}\n${ref.path}`);
