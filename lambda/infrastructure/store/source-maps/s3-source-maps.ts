import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { StorageUnavailableError } from '../../../kernel/errors';
import type { MapRef, SourceMapStore, StoredMap } from '../../../ingest/sourcemaps/ports';
import type { MapUploads, StoredMapInfo, UploadTarget } from '../../../ingest/sourcemaps/upload/ports';
import { announcementKey, mapKey, pendingKey } from './object-keys';
import { factoryPrefixOf, isMissing, storable } from './s3-map-reader';

/** How long a presigned PUT stays usable: long enough for a slow CI link to send 50 MiB. */
export const UPLOAD_URL_SECONDS = 15 * 60;

/** The object metadata that records a stored map's sha256 (x-amz-meta-sha256). */
const SHA256_METADATA = 'sha256';
const MAP_CONTENT_TYPE = 'application/json';
const CHECKSUM_HEADER = 'x-amz-checksum-sha256';

/**
 * Source maps on S3 (docs/source-maps.md): the resolver's reads
 * (SourceMapStore) and the upload side (MapUploads), one bucket, every key
 * under its factory (object-keys.ts). The same adapter runs on AWS and on
 * the embedded store of `npm start`, by the client's endpoint.
 */
export class S3SourceMaps implements SourceMapStore, MapUploads {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
    /** Signs upload URLs; the API's client, unless the tests sign for another host. */
    private readonly signer: S3Client = s3,
  ) {}

  async get(factoryId: string, ref: MapRef, signal?: AbortSignal): Promise<StoredMap | undefined> {
    const key = mapKey(factoryPrefixOf(factoryId), ref);
    if (!storable(ref)) return undefined;
    try {
      const answer = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }), { abortSignal: signal });
      const text = (await answer.Body?.transformToString('utf-8')) ?? '';
      return { text, bytes: answer.ContentLength ?? Buffer.byteLength(text) };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw new StorageUnavailableError('source map read', error);
    }
  }

  async stored(factoryId: string, ref: MapRef): Promise<StoredMapInfo | undefined> {
    const key = mapKey(factoryPrefixOf(factoryId), ref);
    const head = await this.head(key, 'source map lookup');
    if (!head) return undefined;
    return { sha256: head.Metadata?.[SHA256_METADATA] ?? '', bytes: head.ContentLength ?? 0, storedAtMs: head.LastModified?.getTime() };
  }

  async target(factoryId: string, uploadId: string, announced: { bytes: number; sha256: string }): Promise<UploadTarget> {
    const key = pendingKey(factoryPrefixOf(factoryId), uploadId);
    // The length and the checksum are signed: the store refuses a PUT of other bytes (a replayed URL included).
    const checksum = Buffer.from(announced.sha256, 'hex').toString('base64');
    try {
      const url = await getSignedUrl(
        this.signer,
        new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentLength: announced.bytes, ChecksumSHA256: checksum, ContentType: MAP_CONTENT_TYPE }),
        // Headers, not query parameters: the PUT must carry them, and the store checks its body against the checksum.
        { expiresIn: UPLOAD_URL_SECONDS, unhoistableHeaders: new Set([CHECKSUM_HEADER]) },
      );
      return {
        url,
        method: 'PUT',
        headers: { 'Content-Type': MAP_CONTENT_TYPE, [CHECKSUM_HEADER]: checksum, 'Content-Length': String(announced.bytes) },
        expiresAt: new Date(Date.now() + UPLOAD_URL_SECONDS * 1000).toISOString(),
      };
    } catch (error) {
      throw new StorageUnavailableError('upload URL signing', error);
    }
  }

  async announce(factoryId: string, uploadId: string, announced: { ref: MapRef; sha256: string; bytes: number }): Promise<void> {
    const body = JSON.stringify({ ref: announced.ref, sha256: announced.sha256, bytes: announced.bytes });
    try {
      await this.s3.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: announcementKey(factoryPrefixOf(factoryId), uploadId), Body: body, ContentType: MAP_CONTENT_TYPE }),
      );
    } catch (error) {
      throw new StorageUnavailableError('upload announcement', error);
    }
  }

  async announcement(factoryId: string, uploadId: string): Promise<{ ref: MapRef; sha256: string; bytes: number } | undefined> {
    try {
      const answer = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: announcementKey(factoryPrefixOf(factoryId), uploadId) }));
      return JSON.parse((await answer.Body?.transformToString('utf-8')) ?? 'null') ?? undefined;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw new StorageUnavailableError('upload announcement read', error);
    }
  }

  async pendingBytes(factoryId: string, uploadId: string): Promise<number | undefined> {
    const head = await this.head(pendingKey(factoryPrefixOf(factoryId), uploadId), 'upload lookup');
    return head ? (head.ContentLength ?? 0) : undefined;
  }

  async readPending(factoryId: string, uploadId: string): Promise<Uint8Array | undefined> {
    try {
      const answer = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: pendingKey(factoryPrefixOf(factoryId), uploadId) }));
      return await answer.Body?.transformToByteArray();
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw new StorageUnavailableError('upload read', error);
    }
  }

  async store(factoryId: string, ref: MapRef, body: Uint8Array, info: StoredMapInfo): Promise<void> {
    try {
      await this.s3.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: mapKey(factoryPrefixOf(factoryId), ref),
          Body: body,
          ContentLength: body.byteLength,
          ContentType: MAP_CONTENT_TYPE,
          Metadata: { [SHA256_METADATA]: info.sha256 },
        }),
      );
    } catch (error) {
      throw new StorageUnavailableError('source map write', error);
    }
  }

  async discard(factoryId: string, uploadId: string): Promise<void> {
    const prefix = factoryPrefixOf(factoryId);
    // The announcement last: while it exists the upload can be completed, so it goes once the bytes are gone.
    for (const key of [pendingKey(prefix, uploadId), announcementKey(prefix, uploadId)]) {
      try {
        await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
      } catch (error) {
        if (!isMissing(error)) throw new StorageUnavailableError('upload removal', error);
      }
    }
  }

  private async head(key: string, operation: string) {
    try {
      return await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw new StorageUnavailableError(operation, error);
    }
  }
}
