import type { MapRef } from '../../../ingest/sourcemaps/ports';

/**
 * The bucket's layout. Every key starts with its area and then the factory
 * id, taken from the caller's key only, so no ref one factory can name ever
 * reaches another factory's objects:
 *
 *   maps/<factoryId>/debug-id/<debugId>                      a map found by debug id
 *   maps/<factoryId>/release/<release>/<path>                a map found by release and URL path (each URL-encoded:
 *                                                            one segment each, whatever slashes they hold)
 *   pending/<factoryId>/<uploadId>                           bytes PUT by an uploader, not yet checked (expire after a day)
 *   pending/<factoryId>/<uploadId>.announced                 what the upload was requested for: ref, sha256, size (the same)
 */
export const MAPS_PREFIX = 'maps/';
export const PENDING_PREFIX = 'pending/';

export function mapKey(factoryId: string, ref: MapRef): string {
  return ref.kind === 'debugId'
    ? `${MAPS_PREFIX}${factoryId}/debug-id/${ref.debugId}`
    : `${MAPS_PREFIX}${factoryId}/release/${encodeURIComponent(ref.release)}/${encodeURIComponent(ref.path)}`;
}

export function pendingKey(factoryId: string, uploadId: string): string {
  return `${PENDING_PREFIX}${factoryId}/${uploadId}`;
}

/** What an upload was requested for, beside its pending bytes (under the same expiry). */
export function announcementKey(factoryId: string, uploadId: string): string {
  return `${pendingKey(factoryId, uploadId)}.announced`;
}
