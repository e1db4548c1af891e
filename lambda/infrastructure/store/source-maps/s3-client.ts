import { S3Client } from '@aws-sdk/client-s3';
import { LOCAL_S3_CREDENTIALS, type S3Config } from './s3-config';

// Apart (s3-config.ts) so that the map readers, which sign their own GETs (s3-map-reader.ts), carry no S3 client.
export { LOCAL_S3_CREDENTIALS, s3ConfigFromEnv, type S3Config } from './s3-config';

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
