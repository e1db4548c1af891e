import { Agent as HttpAgent, request as httpRequest, type AgentOptions, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { ConfiguredRetryStrategy, isServerError, isThrottlingError, isTransientError } from '@smithy/core/retry';
import { signPost, type AwsCredentials } from '../../aws-sdk/sigv4';

/**
 * The DynamoDB client the Lambda assets carry in place of `@aws-sdk/client-dynamodb`
 * (an esbuild alias in lib/service-function.ts; the sources, their tests and the
 * tools keep the SDK's): one signed JSON POST per operation over a keep-alive
 * agent, with the SDK's timeouts, its retry strategy (the one the configuration
 * passes, driven as the SDK's retry middleware drives it, its error
 * classification imported) and its errors' shape (name, message, `$fault`,
 * `$metadata`, the service's fields such as a refused condition's `Item`).
 * Why: the SDK's client spent about three times the CPU of this one per call
 * and was most of each asset (docs/performance.md#cpu-per-event).
 * test/store/lean-dynamodb.test.ts holds the two clients to the same answers.
 */

/** What this client reads of the SDK client's configuration (lambda/infrastructure/store/dynamo-client.ts passes it). */
export interface DynamoDBClientConfig {
  endpoint?: string;
  region?: string;
  credentials?: AwsCredentials;
  retryStrategy?: RetryStrategy;
  requestHandler?: {
    connectionTimeout?: number;
    requestTimeout?: number;
    throwOnRequestTimeout?: boolean;
    httpAgent?: AgentOptions | HttpAgent;
    httpsAgent?: AgentOptions | HttpsAgent;
  };
}

/** The SDK's retry strategy (its RetryStrategyV2 interface), as its retry middleware drives it. */
export type RetryStrategy = Pick<ConfiguredRetryStrategy, 'acquireInitialRetryToken' | 'refreshRetryTokenForRetry' | 'recordSuccess'>;
type RetryErrorInfo = Parameters<RetryStrategy['refreshRetryTokenForRetry']>[1];
type ErrorType = RetryErrorInfo['errorType'];

/** One low-level operation: its name (`PutItem`) and its input as DynamoDB's JSON (attribute values marshalled). */
export interface WireCommand {
  operation: string;
  input: Record<string, unknown>;
}

export interface ResponseMetadata {
  httpStatusCode?: number;
  requestId?: string;
  attempts?: number;
  totalRetryDelay?: number;
}

/** An error as the SDK throws it: the service's error name, its fault side and metadata, the fields of its body. */
export type ServiceError = Error & { $fault?: 'client' | 'server'; $metadata: ResponseMetadata } & Record<string, unknown>;

const JSON_CONTENT = 'application/x-amz-json-1.0';
const TARGET_PREFIX = 'DynamoDB_20120810.';

/** Binary attribute values go as base64, as the SDK sends them (the holder's own value: a Buffer's toJSON has run by now). */
function toWire(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const own = this[key];
  return own instanceof Uint8Array ? Buffer.from(own.buffer, own.byteOffset, own.byteLength).toString('base64') : value;
}

/** `{"B": "<base64>"}` and `{"BS": […]}` come back as bytes, as the SDK gives them. */
function fromWire(this: Record<string, unknown>, key: string, value: unknown): unknown {
  if (key === 'B' && typeof value === 'string') return bytesOf(value);
  if (key === 'BS' && Array.isArray(value)) return value.map((entry) => (typeof entry === 'string' ? bytesOf(entry) : entry));
  return value;
}
const bytesOf = (base64: string): Uint8Array => new Uint8Array(Buffer.from(base64, 'base64'));
/** Whether an answer holds a binary value at all: the reviver (slower) runs only then. */
const HAS_BINARY = /"BS?":/;

/** DynamoDB's JSON answer, its binary values as bytes. */
export const parseAnswer = (text: string): unknown => (text === '' ? {} : HAS_BINARY.test(text) ? JSON.parse(text, fromWire) : JSON.parse(text));

/** The SDK's timeout errors: name TimeoutError (transient, retried). */
const timeoutError = (message: string): Error => Object.assign(new Error(message), { name: 'TimeoutError' });

/** The credentials Lambda puts in the environment, read at each call (what the bundle's credential chain reads too). */
function environmentCredentials(): AwsCredentials {
  const accessKeyId = process.env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = process.env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) {
    throw Object.assign(new Error('Unable to find environment variable credentials (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY).'), {
      name: 'CredentialsProviderError',
    });
  }
  const sessionToken = process.env.AWS_SESSION_TOKEN;
  return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
}

/** DynamoDB's error body, `{"__type": "com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException", "message": …, …}`, as the SDK's error. */
export function serviceErrorOf(status: number, headers: Record<string, string | undefined>, text: string): ServiceError {
  let body: Record<string, unknown> = {};
  try {
    const parsed = parseAnswer(text);
    if (parsed !== null && typeof parsed === 'object') body = parsed as Record<string, unknown>;
  } catch {
    // Not JSON (a proxy's page): the status says it all.
  }
  const { __type, message, Message, ...fields } = body;
  const type = typeof __type === 'string' ? __type : (headers['x-amzn-errortype'] ?? '');
  const name = type.slice(type.lastIndexOf('#') + 1).split(':')[0] || (status >= 500 ? 'InternalServerError' : 'UnknownError');
  const said = typeof message === 'string' ? message : typeof Message === 'string' ? Message : name;
  const error = Object.assign(new Error(said), fields) as ServiceError;
  error.name = name;
  error.$fault = status >= 500 ? 'server' : 'client';
  error.$metadata = { httpStatusCode: status, requestId: headers['x-amzn-requestid'] };
  return error;
}

/** How the SDK's retry middleware classifies a failure for its strategy. */
function errorTypeOf(error: RetryErrorInfo['error'] & object): ErrorType {
  if (isThrottlingError(error)) return 'THROTTLING';
  if (isTransientError(error)) return 'TRANSIENT';
  if (isServerError(error)) return 'SERVER_ERROR';
  return 'CLIENT_ERROR';
}

const agentOf = <A extends HttpAgent | HttpsAgent>(given: AgentOptions | A | undefined, Make: new (options: AgentOptions) => A): A =>
  given instanceof Make ? given : new Make({ keepAlive: true, maxSockets: 50, ...(given as AgentOptions | undefined) });

export class DynamoDBClient {
  private readonly url: URL;
  private readonly region: string;
  private readonly agent: HttpAgent | HttpsAgent;
  private readonly send_: typeof httpRequest;
  private readonly retry: RetryStrategy;
  private readonly connectionTimeout: number;
  private readonly requestTimeout: number;
  private credentials: AwsCredentials | undefined;

  constructor(private readonly config: DynamoDBClientConfig = {}) {
    this.region = config.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? '';
    if (!config.endpoint && !this.region) throw new Error('Region is missing: set AWS_REGION or pass region');
    this.url = new URL(config.endpoint ?? `https://dynamodb.${this.region}.amazonaws.com`);
    const https = this.url.protocol === 'https:';
    const handler = config.requestHandler ?? {};
    this.agent = https ? agentOf(handler.httpsAgent, HttpsAgent) : agentOf(handler.httpAgent, HttpAgent);
    this.send_ = https ? httpsRequest : httpRequest;
    this.retry = config.retryStrategy ?? new ConfiguredRetryStrategy(3);
    this.connectionTimeout = handler.connectionTimeout ?? 0;
    this.requestTimeout = handler.requestTimeout ?? 0;
  }

  /**
   * Sends one operation, retried as the SDK retries it (its strategy's attempts, delays and retry quota); answers the
   * parsed output with `$metadata`, or throws the last failure.
   */
  async send(command: WireCommand): Promise<Record<string, unknown> & { $metadata: ResponseMetadata }> {
    const body = JSON.stringify(command.input, toWire);
    let token = await this.retry.acquireInitialRetryToken('');
    let attempts = 0;
    let totalRetryDelay = 0;
    for (;;) {
      try {
        const output = await this.attempt(command.operation, body);
        this.retry.recordSuccess(token);
        output.$metadata.attempts = attempts + 1;
        output.$metadata.totalRetryDelay = totalRetryDelay;
        return output;
      } catch (caught) {
        const error = caught as ServiceError;
        error.$metadata ??= {};
        try {
          const sdkError = error as RetryErrorInfo['error'] & object;
          token = await this.retry.refreshRetryTokenForRetry(token, { error: sdkError, errorType: errorTypeOf(sdkError) });
        } catch {
          error.$metadata.attempts = attempts + 1;
          error.$metadata.totalRetryDelay = totalRetryDelay;
          throw error;
        }
        attempts = token.getRetryCount();
        const delay = token.getRetryDelay();
        totalRetryDelay += delay;
        if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  /** One signed POST; its answer parsed, or the error the SDK would throw for it. */
  private attempt(operation: string, body: string): Promise<Record<string, unknown> & { $metadata: ResponseMetadata }> {
    const headers = signPost({
      host: this.url.host,
      service: 'dynamodb',
      region: this.region || 'us-east-1',
      headers: { 'content-type': JSON_CONTENT, 'x-amz-target': TARGET_PREFIX + operation },
      body,
      // Read once and kept, as the SDK's environment provider memoizes them (process.env is slow to read per call).
      credentials: (this.credentials ??= this.config.credentials ?? environmentCredentials()),
    });
    headers['content-length'] = String(Buffer.byteLength(body));
    return new Promise((resolve, reject) => {
      let connectTimer: NodeJS.Timeout | undefined;
      const req: ClientRequest = this.send_(
        { protocol: this.url.protocol, hostname: this.url.hostname, port: this.url.port, path: '/', method: 'POST', headers, agent: this.agent },
        (res: IncomingMessage) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const status = res.statusCode ?? 0;
            const answerHeaders = res.headers as Record<string, string | undefined>;
            if (status < 200 || status >= 300) return reject(serviceErrorOf(status, answerHeaders, text));
            try {
              const output = parseAnswer(text) as Record<string, unknown>;
              resolve(Object.assign(output, { $metadata: { httpStatusCode: status, requestId: answerHeaders['x-amzn-requestid'] } as ResponseMetadata }));
            } catch (error) {
              reject(Object.assign(new Error(`DynamoDB answered ${status} with a body that is not JSON`), { name: 'SerializationError', cause: error }));
            }
          });
        },
      );
      req.on('error', (error) => {
        if (connectTimer) clearTimeout(connectTimer);
        reject(error);
      });
      if (this.connectionTimeout > 0) {
        req.on('socket', (socket) => {
          if (!socket.connecting) return;
          connectTimer = setTimeout(() => {
            req.destroy();
            reject(timeoutError(`Socket timed out without establishing a connection within ${this.connectionTimeout} ms`));
          }, this.connectionTimeout);
          socket.once('connect', () => clearTimeout(connectTimer));
        });
      }
      if (this.requestTimeout > 0) {
        // As the SDK's handler with throwOnRequestTimeout (which every client here sets): a socket idle this long fails the attempt.
        req.setTimeout(this.requestTimeout, () => {
          req.destroy();
          reject(timeoutError(`Connection timed out after ${this.requestTimeout} ms`));
        });
      }
      req.end(body);
    });
  }

  destroy(): void {
    this.agent.destroy();
  }
}
