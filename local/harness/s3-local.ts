/**
 * The embedded S3-compatible store of `npm start` and the tests (s3rver, in
 * this process): the source maps bucket, its objects as files under a data
 * folder. The service reaches it through S3_ENDPOINT with the same adapter
 * as on AWS (lambda/infrastructure/store/source-maps). s3rver checks no
 * signature (only the access key id): the layer in front of it
 * (s3-verifying.ts) checks each request's signature, a presigned URL's
 * expiry and an upload's signed checksum as S3 does
 * (docs/source-maps.md#under-npm-start).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import S3rver from 's3rver';
import { LOCAL_DATA_DIR, PROJECT_ROOT, CHOSEN_DATA_DIR } from './paths';
import { startVerifyingS3 } from './s3-verifying';

/** The bucket's name locally (the stack names its own); SOURCE_MAPS_BUCKET carries it to the functions. */
export const LOCAL_SOURCE_MAPS_BUCKET = 'contacts-source-maps';

/** Where `npm start` keeps the maps: beside DynamoDB Local's data (inside CONTACTS_DATA_DIR when set). */
export const LOCAL_S3_DIR = CHOSEN_DATA_DIR ? join(LOCAL_DATA_DIR, 's3') : join(PROJECT_ROOT, '.data', 's3');

export interface S3Local {
  /** Where the service and uploaders reach the store: through the layer that checks signatures (s3-verifying.ts). */
  endpoint: string;
  /** s3rver itself, behind that layer: for a test that checks signatures of its own in front of it. */
  storeEndpoint: string;
  bucket: string;
  stop(): Promise<void>;
}

/** Starts the store on `port` (0: any free port) on loopback, its bucket created if missing. */
export async function startS3Local(options: { directory: string; port?: number; bucket?: string }): Promise<S3Local> {
  const bucket = options.bucket ?? LOCAL_SOURCE_MAPS_BUCKET;
  mkdirSync(options.directory, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port ?? 0,
    directory: options.directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  // The service and uploaders reach the store through the layer that checks signatures and expiry as S3 does.
  const verifying = await startVerifyingS3(`http://127.0.0.1:${port}`);
  return {
    endpoint: verifying.endpoint,
    storeEndpoint: `http://127.0.0.1:${port}`,
    bucket,
    stop: async () => {
      await verifying.close();
      server.httpServer?.closeAllConnections();
      await server.close();
    },
  };
}

/** The environment the functions read the store from (lambda/infrastructure/store/source-maps/s3-client.ts). */
export function s3Environment(store: Pick<S3Local, 'endpoint' | 'bucket'>): Record<string, string> {
  return { S3_ENDPOINT: store.endpoint, SOURCE_MAPS_BUCKET: store.bucket };
}
