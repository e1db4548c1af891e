import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

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
 * DynamoDB in a region answers in milliseconds: bounded so that a stuck
 * DynamoDB gives our 503 within a few seconds, far inside the Lambda timeout
 * and API Gateway's 29 s: 3 attempts × 1 s plus backoff per call.
 */
export const DEFAULT_DYNAMO_CONFIG: DynamoConfig = {
  connectionTimeoutMs: 500,
  requestTimeoutMs: 1000,
  maxAttempts: 3,
};

/**
 * DynamoDB Local (Java, on the same busy machine) takes tens to hundreds of
 * milliseconds under a burst and pauses for its garbage collector: a second
 * is not a sign it is stuck. 3 attempts × 3 s still end before the 10 s
 * Lambda timeout the local adapter gives the handler.
 */
export const LOCAL_DYNAMO_CONFIG: DynamoConfig = {
  connectionTimeoutMs: 1000,
  requestTimeoutMs: 3000,
  maxAttempts: 3,
};

/**
 * The function's configuration, from its environment: the stack never sets
 * DYNAMODB_ENDPOINT, so on AWS the fail-fast timeouts above apply; `npm
 * start`, the tests and the tools set it to a DynamoDB Local, and get the
 * local ones.
 */
export function dynamoConfigFromEnv(env: NodeJS.ProcessEnv = process.env): DynamoConfig {
  const endpoint = env.DYNAMODB_ENDPOINT || undefined;
  return {
    ...(endpoint ? LOCAL_DYNAMO_CONFIG : DEFAULT_DYNAMO_CONFIG),
    endpoint,
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
  return client;
}
