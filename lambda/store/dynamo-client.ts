import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { recordDynamoCalls } from '../observability/dynamo-stats';

export interface DynamoConfig {
  /** DynamoDB Local or another endpoint; unset means the AWS regional endpoint. */
  endpoint?: string;
  region?: string;
  /** Per attempt: time to open a connection, and to get the whole answer. */
  connectionTimeoutMs: number;
  requestTimeoutMs: number;
  /** Attempts per call, the first included. */
  maxAttempts: number;
}

/**
 * Bounded so that a stuck DynamoDB gives our 503 within a few seconds, far
 * inside the Lambda timeout and API Gateway's 29 s: 3 attempts × 1 s plus
 * backoff per call.
 */
export const DEFAULT_DYNAMO_CONFIG: DynamoConfig = {
  connectionTimeoutMs: 500,
  requestTimeoutMs: 1000,
  maxAttempts: 3,
};

export function dynamoConfigFromEnv(env: NodeJS.ProcessEnv = process.env): DynamoConfig {
  return {
    ...DEFAULT_DYNAMO_CONFIG,
    endpoint: env.DYNAMODB_ENDPOINT || undefined,
    region: env.AWS_REGION || env.AWS_DEFAULT_REGION || undefined,
  };
}

/**
 * One document client per container: created at module load by the handler,
 * reused by every invocation, with keep-alive sockets.
 */
export function createDocumentClient(config: DynamoConfig): DynamoDBDocumentClient {
  return documentClientOf(createDynamoClient(config));
}

/** The document client over a low-level one, with the marshalling every store here expects. */
export function documentClientOf(client: DynamoDBClient): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

/** The low-level client under the document client (table administration). */
export function createDynamoClient(config: DynamoConfig): DynamoDBClient {
  const agent = { keepAlive: true, maxSockets: 50 };
  const local = config.endpoint !== undefined;
  const client = new DynamoDBClient({
    endpoint: config.endpoint,
    // DynamoDB Local accepts any region and credentials (it runs with -sharedDb).
    region: config.region ?? (local ? 'us-east-1' : undefined),
    credentials:
      local && !process.env.AWS_ACCESS_KEY_ID ? { accessKeyId: 'local', secretAccessKey: 'local' } : undefined,
    maxAttempts: config.maxAttempts,
    requestHandler: {
      connectionTimeout: config.connectionTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      throwOnRequestTimeout: true, // without it the SDK only logs a warning and keeps waiting
      httpAgent: agent,
      httpsAgent: agent,
    },
  });
  // Per-request call counts and latencies for the request log and metrics.
  recordDynamoCalls(client);
  return client;
}
