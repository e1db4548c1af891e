import { S3Client } from '@aws-sdk/client-s3';

export interface S3Config {
  /** An S3-compatible endpoint (the embedded store of `npm start` and the tests); unset means AWS's regional S3. */
  endpoint?: string;
  region?: string;
  /** The source maps bucket. */
  bucket: string;
}

/** The embedded store (s3rver) looks only at the access key id; these are its defaults. */
export const LOCAL_S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * The configuration from a function's environment: `SOURCE_MAPS_BUCKET`, and
 * `S3_ENDPOINT`, which only `npm start`, the tests and the tools set (to the
 * embedded store), as they set DYNAMODB_ENDPOINT. Undefined without a bucket.
 */
export function s3ConfigFromEnv(env: NodeJS.ProcessEnv = process.env): S3Config | undefined {
  const bucket = env.SOURCE_MAPS_BUCKET;
  if (!bucket) return undefined;
  return { bucket, endpoint: env.S3_ENDPOINT || undefined, region: env.AWS_REGION || env.AWS_DEFAULT_REGION || undefined };
}

/**
 * One client per container. Checksums only when an operation requires them:
 * with the SDK's default a presigned PUT carries the CRC32 of an empty body,
 * which S3 then refuses for any real upload (aws/aws-sdk-js-v3#6994), and a
 * streamed PUT is sent aws-chunked, which the embedded store would keep as
 * data. Path-style addressing: the local endpoint is an IP address.
 */
export function createS3Client(config: S3Config): S3Client {
  const local = config.endpoint !== undefined;
  const agent = { keepAlive: true, maxSockets: 50 };
  return new S3Client({
    endpoint: config.endpoint,
    region: config.region ?? (local ? 'us-east-1' : undefined),
    forcePathStyle: local,
    credentials: local ? LOCAL_S3_CREDENTIALS : undefined,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    requestHandler: {
      connectionTimeout: 1000,
      // Per socket inactivity, not the whole transfer: a 50 MiB map streams for longer than this.
      requestTimeout: 5000,
      throwOnRequestTimeout: true,
      httpAgent: agent,
      httpsAgent: agent,
    },
  });
}
