import type { S3Client } from '@aws-sdk/client-s3';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient, dynamoConfigFromEnv } from '../../../infrastructure/store/dynamo-client';
import { DynamoKeyAuthorizer } from '../../../infrastructure/store/keys/dynamo-key-authorizer';
import { tableNamesFromEnv } from '../../../infrastructure/store/schema';
import { createS3Client, s3ConfigFromEnv } from '../../../infrastructure/store/source-maps/s3-client';
import { S3SourceMaps } from '../../../infrastructure/store/source-maps/s3-source-maps';
import type { SourceMapsDependencies } from './routes';

/**
 * The source maps API's wiring (the only module of its folder that knows the
 * stores): the keys table on DynamoDB, the maps bucket on S3.
 */
export function sourceMapsDependencies(doc: DynamoDBDocumentClient, keysTable: string, s3: S3Client, bucket: string): SourceMapsDependencies {
  return { keys: new DynamoKeyAuthorizer(doc, keysTable), uploads: new S3SourceMaps(s3, bucket) };
}

/** What the source maps Lambda entry point runs on, from the function's environment (SOURCE_MAPS_BUCKET, S3_ENDPOINT locally). */
export function sourceMapsContainerDependencies(env: NodeJS.ProcessEnv = process.env): SourceMapsDependencies {
  const s3 = s3ConfigFromEnv(env);
  if (!s3) throw new Error('SOURCE_MAPS_BUCKET is not set: the source maps function needs its bucket');
  return sourceMapsDependencies(createDocumentClient(dynamoConfigFromEnv(env)), tableNamesFromEnv(env).keys, createS3Client(s3), s3.bucket);
}
