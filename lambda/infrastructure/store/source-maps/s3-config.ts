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
