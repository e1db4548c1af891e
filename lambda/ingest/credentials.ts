import { PUBLISHABLE_SHAPE, SECRET_SHAPE } from '../kernel/api-key';

/**
 * The key of an ingest request (docs/ingest-api.md#keys-and-origins):
 * `Authorization: Bearer dfpk_…`, or `?key=dfpk_…` because
 * navigator.sendBeacon cannot set headers. Decided without any I/O.
 */
export type IngestCredential =
  | { kind: 'missing' }
  | { kind: 'not-bearer' }
  /** An Authorization header or a key parameter sent more than once. */
  | { kind: 'repeated' }
  /** A key in the header and a different one in the query. */
  | { kind: 'conflicting' }
  | { kind: 'malformed' }
  /** A secret key, in either place: it has leaked (refused like an unknown key, and marked exposed). */
  | { kind: 'secret'; secret: string }
  | { kind: 'publishable'; key: string };

const BEARER = /^\s*bearer\s+(\S+)\s*$/i;

/**
 * Reads the key from the Authorization header values and the `key` query
 * values of a request. A secret key anywhere wins: whatever else the request
 * holds, that key is to be recorded as exposed.
 */
export function readIngestCredential(authorization: readonly string[], keyParameter: readonly string[]): IngestCredential {
  const header = authorization.filter((value) => value.trim() !== '');
  const query = keyParameter.map((value) => value.trim()).filter((value) => value !== '');
  const headerKey = header.length === 1 ? BEARER.exec(header[0] as string)?.[1] : undefined;
  const secret = [headerKey, ...query].find((key) => key !== undefined && SECRET_SHAPE.test(key));
  if (secret) return { kind: 'secret', secret };
  if (header.length > 1 || query.length > 1) return { kind: 'repeated' };
  if (header.length === 1 && headerKey === undefined) return { kind: 'not-bearer' };
  const [queryKey] = query;
  if (headerKey !== undefined && queryKey !== undefined && headerKey !== queryKey) return { kind: 'conflicting' };
  const key = headerKey ?? queryKey;
  if (key === undefined) return { kind: 'missing' };
  return PUBLISHABLE_SHAPE.test(key) ? { kind: 'publishable', key } : { kind: 'malformed' };
}
