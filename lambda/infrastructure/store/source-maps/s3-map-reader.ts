import { fromEnv } from '@aws-sdk/credential-provider-env';
import { SignatureV4 } from '@smithy/signature-v4';
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { StorageUnavailableError } from '../../../kernel/errors';
import { FACTORY_ID_PATTERN } from '../../../kernel/factory-id';
import type { MapRef, SourceMapStore, StoredMap } from '../../../ingest/sourcemaps/ports';
import { DEBUG_ID_PATTERN } from '../../../ingest/sourcemaps/upload/map-ref';
import { mapKey } from './object-keys';
import { LOCAL_S3_CREDENTIALS, s3ConfigFromEnv, type S3Config } from './s3-config';

/** S3's answer for a key that holds nothing (HEAD says NotFound, GET NoSuchKey). */
export const isMissing = (error: unknown): boolean =>
  error instanceof Error &&
  (error.name === 'NotFound' || error.name === 'NoSuchKey' || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404);

/** A factory id that could step outside its own prefix is a bug of the caller, never a request to serve. */
export function factoryPrefixOf(factoryId: string): string {
  if (!FACTORY_ID_PATTERN.test(factoryId)) throw new Error(`not a factory id: ${JSON.stringify(factoryId.slice(0, 80))}`);
  return factoryId;
}

/** A ref no upload can have stored (an id that is no UUID): nothing to ask S3 about. */
export const storable = (ref: MapRef): boolean => ref.kind !== 'debugId' || DEBUG_ID_PATTERN.test(ref.debugId);

/** What the signer hands its hash. */
type SourceData = string | ArrayBuffer | ArrayBufferView;

const bytesOf = (data: SourceData): string | Uint8Array =>
  typeof data === 'string' ? data : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);

/** SHA-256 and its HMAC, as the signer asks for them (a secret makes it an HMAC); the local store's checking layer signs with it too. */
export class NodeSha256 {
  private readonly hash: Hash | Hmac;
  constructor(secret?: SourceData) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytesOf(secret));
  }
  update(data: SourceData): void {
    this.hash.update(bytesOf(data));
  }
  async digest(): Promise<Uint8Array> {
    return this.hash.digest();
  }
}

/** A key segment encoded as SigV4 canonicalizes it (all but A-Z a-z 0-9 - _ . ~), so what is sent is what is signed. */
const awsEncoded = (segment: string): string => encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Where an S3 key is read from: virtual-hosted on AWS, path-style on a local endpoint (an IP address). */
function objectUrl(config: S3Config, key: string): URL {
  const path = key.split('/').map(awsEncoded).join('/');
  if (config.endpoint) return new URL(`${config.endpoint.replace(/\/$/, '')}/${encodeURIComponent(config.bucket)}/${path}`);
  return new URL(`https://${config.bucket}.s3.${config.region ?? 'us-east-1'}.amazonaws.com/${path}`);
}

/** What the reader signs with: keys, or a provider of them (fromEnv() on Lambda: the role's, with a session token). */
export type S3ReaderCredentials = ConstructorParameters<typeof SignatureV4>[0]['credentials'];

/**
 * The resolver's side of the maps bucket (the ingest function, the control
 * room): one signed GET under the factory's own prefix. It signs the GET
 * itself (SigV4, the role's credentials from the environment as on Lambda)
 * rather than through the S3 client, which would more than half again the
 * ingest function's bundle for this one call (bench/asset-sizes.md).
 * `credentials` replace those (a test checking the signature against a store that verifies it).
 */
export class S3MapReader implements SourceMapStore {
  private readonly signer: SignatureV4;

  constructor(
    private readonly config: S3Config,
    credentials: S3ReaderCredentials = config.endpoint ? LOCAL_S3_CREDENTIALS : fromEnv(),
  ) {
    this.signer = new SignatureV4({
      service: 's3',
      region: config.region ?? 'us-east-1',
      credentials,
      sha256: NodeSha256,
      // The path is encoded once, above: S3 signs it as sent.
      uriEscapePath: false,
    });
  }

  async get(factoryId: string, ref: MapRef, signal?: AbortSignal): Promise<StoredMap | undefined> {
    const key = mapKey(factoryPrefixOf(factoryId), ref);
    if (!storable(ref)) return undefined;
    const url = objectUrl(this.config, key);
    let answer: Response;
    try {
      const signed = await this.signer.sign({
        method: 'GET',
        protocol: url.protocol,
        hostname: url.hostname,
        port: url.port ? Number(url.port) : undefined,
        path: url.pathname,
        query: {},
        headers: { host: url.host, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
      });
      answer = await fetch(url, { headers: signed.headers, signal: signal ?? AbortSignal.timeout(READ_TIMEOUT_MS) });
    } catch (error) {
      throw new StorageUnavailableError('source map read', error);
    }
    // 404 with s3:ListBucket granted (403 without it: then a missing map would look like a denied read).
    if (answer.status === 404) {
      await answer.body?.cancel();
      return undefined;
    }
    if (!answer.ok) {
      await answer.body?.cancel();
      throw new StorageUnavailableError('source map read', new Error(`S3 answered ${answer.status} to a GET`));
    }
    try {
      const text = await answer.text();
      return { text, bytes: Buffer.byteLength(text) };
    } catch (error) {
      throw new StorageUnavailableError('source map read', error);
    }
  }
}

/** A read with no deadline of its own (the control room's) still ends: a 50 MiB map at a slow pace fits. */
const READ_TIMEOUT_MS = 20_000;

/**
 * The maps bucket a function reads, from its environment: SOURCE_MAPS_BUCKET (the stack sets it where it grants
 * the read), and S3_ENDPOINT under npm start and in the tests (the embedded store). None without a bucket.
 */
export function mapReaderFromEnv(env: NodeJS.ProcessEnv = process.env): S3MapReader | undefined {
  const config = s3ConfigFromEnv(env);
  return config ? new S3MapReader(config) : undefined;
}
