import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConfiguredRetryStrategy } from '@smithy/core/retry';

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

/**
 * The document client over a low-level one, with the marshalling every store here expects. A map whose keys a
 * sender chose (an event's tags, its debug ids) may hold a key named `constructor`: the marshaller tells a plain
 * object from a class instance by that property, and refused such a map as "Unsupported type" (a 503 any page
 * could cause at will); `convertClassInstanceToMap` marshals it as the map it is. No store passes a class instance.
 */
export function documentClientOf(client: DynamoDBClient): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: true } });
}

/**
 * The wait before the SDK's next attempt of a failed call: 25, then 50 ms,
 * jittered, for every retryable failure throttling included (docs/capacity.md#past-capacity).
 * The SDK's own waits for throttling (up to 0.5 then 1 s) hold a Lambda
 * through a storm for a partition that refills by the second: better to
 * answer 429 at once and let the caller come back after Retry-After, which
 * spreads the load in time and keeps containers free for other factories.
 */
export const retryDelayMs = (attempt: number): number => Math.round(25 * 2 ** Math.max(0, attempt - 1) * (0.5 + Math.random() / 2));

/**
 * What the DynamoDB client is made with: the SDK's in the sources, the lean
 * client's in the Lambda assets (lambda/infrastructure/store/lean-dynamodb/, which reads the same options).
 */
export function dynamoClientOptions(config: DynamoConfig) {
  const agent = { keepAlive: true, maxSockets: 50 };
  const local = config.endpoint !== undefined;
  return {
    endpoint: config.endpoint,
    // DynamoDB Local accepts any region and credentials (it runs with -sharedDb).
    region: config.region ?? (local ? 'us-east-1' : undefined),
    credentials: local && !process.env.AWS_ACCESS_KEY_ID ? { accessKeyId: 'local', secretAccessKey: 'local' } : undefined,
    retryStrategy: new ConfiguredRetryStrategy(config.maxAttempts, retryDelayMs),
    requestHandler: {
      connectionTimeout: config.connectionTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      throwOnRequestTimeout: true, // without it the SDK only logs a warning and keeps waiting
      httpAgent: agent,
      httpsAgent: agent,
    },
  };
}

/** The low-level client under the document client (table administration). */
export function createDynamoClient(config: DynamoConfig): DynamoDBClient {
  return new DynamoDBClient(dynamoClientOptions(config));
}
