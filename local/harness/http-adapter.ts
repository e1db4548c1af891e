import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { BODY_LIMIT_BYTES } from '../../lambda/kernel/limits';
import { InvocationQueue, Overloaded, type InvocationLimits } from './invocations';

export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

export interface AdapterOptions {
  /** API Gateway's own payload limit; larger requests never reach the handler. */
  maxBodyBytes?: number;
  /** The Lambda timeout the handler sees through context.getRemainingTimeInMillis(). */
  timeoutMs?: number;
  /** How long a client may take to send the request line and headers; slower is 408. */
  headersTimeoutMs?: number;
  /** How long a client may take to send the whole request, body included; slower is 408. */
  requestTimeoutMs?: number;
  /** Handler calls at once and calls waiting (see invocations.ts). */
  invocations?: InvocationLimits;
}

/**
 * How long a client may take to send a request (docs/contacts-api.md#limits). Node's own
 * defaults (60 s and 300 s, checked every 30 s) let a slow client hold a
 * connection for minutes; an API call is a few KiB sent at once.
 */
export const REQUEST_TIME_LIMITS = { headersMs: 10_000, requestMs: 30_000 } as const;

/**
 * 8 calls at once: measured with `npm run load -- --burst 400` on 2 busy
 * cores, 4, 8 and 32 served the burst in the same time (DynamoDB Local sets
 * the pace), while the time of each DynamoDB call grew with the calls in
 * flight (p50 about 50, 110 and 470 ms, max 0.3, 0.6 and 1.8 s). Far below
 * the DynamoDB client's 50 sockets, so no call waits for one.
 */
export const DEFAULT_INVOCATION_LIMITS: InvocationLimits = { concurrency: 8, maxWaiting: 10_000 };

/**
 * The handler calls at once from `LOCAL_CONCURRENCY` (1 to 1,000), else the
 * default: on AWS Lambda adds containers as requests come, so a model of a
 * storm on a slower store (the semantics proxy: docs/capacity.md#the-storm-benchmark)
 * needs more calls in flight than DynamoDB Local alone does.
 */
export function invocationLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): InvocationLimits {
  const value = env.LOCAL_CONCURRENCY;
  if (value === undefined || value === '') return DEFAULT_INVOCATION_LIMITS;
  const concurrency = Number(value);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 1000)
    throw new Error(`LOCAL_CONCURRENCY must be a whole number from 1 to 1000, got "${value}"`);
  return { ...DEFAULT_INVOCATION_LIMITS, concurrency };
}

const GATEWAY_MAX_BODY = 10 * 1024 * 1024;

/** Decodes a query component as API Gateway does: `+` is a space, bad escapes stay as sent. */
function decodeComponent(value: string): string {
  const spaced = value.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** A map from request-chosen names: no prototype, so "__proto__" or "constructor" are plain keys. */
const dictionary = <T>(): Record<string, T> => Object.create(null) as Record<string, T>;

function parseQuery(query: string) {
  const single = dictionary<string>();
  const multi = dictionary<string[]>();
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = decodeComponent(eq === -1 ? part : part.slice(0, eq));
    const value = eq === -1 ? '' : decodeComponent(part.slice(eq + 1));
    single[name] = value;
    (multi[name] ??= []).push(value);
  }
  const any = Object.keys(single).length > 0;
  return { single: any ? single : null, multi: any ? multi : null };
}

/**
 * A stand-in for a request that never came over a socket (the fuzz suite,
 * the benchmark's in-process loops): the only fields toProxyEvent reads.
 */
export function incomingMessageOf(method: string, url: string, rawHeaders: string[]): IncomingMessage {
  return { url, method, rawHeaders, httpVersion: '1.1', socket: { remoteAddress: '127.0.0.1' } } as unknown as IncomingMessage;
}

/** The API Gateway REST (v1) proxy event for a request: what `{proxy+}` with Lambda proxy integration sends. */
export function toProxyEvent(req: IncomingMessage, body: Buffer, requestId: string, sourceIp = req.socket.remoteAddress): APIGatewayProxyEvent {
  let url = req.url ?? '/';
  // An absolute-form target ("GET http://host/path") names the same resource.
  // One that is no URL ("http://a:99999/") is kept as sent, a path of no
  // endpoint (404): `new URL` throwing here used to take the server down.
  if (/^https?:\/\//i.test(url) && URL.canParse(url)) {
    const parsed = new URL(url);
    url = `${parsed.pathname}${parsed.search}`;
  }
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const query = parseQuery(q === -1 ? '' : url.slice(q + 1));
  const headers = dictionary<string>();
  const multiValueHeaders = dictionary<string[]>();
  // Field names are case-insensitive (RFC 9110 5.1): "Authorization" and
  // "authorization" are one field sent twice, grouped under the first spelling,
  // so the handler sees the repeat (401) instead of one value hiding the other.
  const spelling = new Map<string, string>();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const sent = req.rawHeaders[i] as string;
    const name = spelling.get(sent.toLowerCase()) ?? sent;
    spelling.set(sent.toLowerCase(), name);
    const value = req.rawHeaders[i + 1] as string;
    headers[name] = value;
    (multiValueHeaders[name] ??= []).push(value);
  }
  const method = req.method ?? 'GET';
  return {
    resource: '/{proxy+}',
    path,
    httpMethod: method,
    headers,
    multiValueHeaders,
    queryStringParameters: query.single,
    multiValueQueryStringParameters: query.multi,
    pathParameters: path.length > 1 ? { proxy: path.slice(1) } : null,
    stageVariables: null,
    // Text as text; bytes that are not UTF-8 as base64, so nothing is lost or resized.
    body: body.length === 0 ? null : isUtf8(body) ? body.toString('utf8') : body.toString('base64'),
    isBase64Encoded: body.length > 0 && !isUtf8(body),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      authorizer: null,
      protocol: `HTTP/${req.httpVersion}`,
      httpMethod: method,
      path: `/local${path}`,
      stage: 'local',
      requestId,
      requestTimeEpoch: Date.now(),
      resourceId: 'local',
      resourcePath: '/{proxy+}',
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp: sourceIp ?? '127.0.0.1',
        user: null,
        userAgent: headers['User-Agent'] ?? headers['user-agent'] ?? null,
        userArn: null,
      },
    },
  };
}

/** The Lambda context of one invocation, its deadline `timeoutMs` from now (what Middy's early timeout reads). */
export function lambdaContext(requestId: string, timeoutMs: number): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'contacts-api-local',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:local:000000000000:function:contacts-api-local',
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: 'local',
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

function send(res: ServerResponse, result: APIGatewayProxyResult) {
  const body = result.body ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, String(value));
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) res.setHeader(name, values.map(String));
  res.setHeader('Content-Length', body.length);
  res.writeHead(result.statusCode);
  res.end(body);
}

function gatewayError(res: ServerResponse, statusCode: number, message: string) {
  send(res, { statusCode, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ error: message }) });
}

/** What the adapter answers when the handler could not be called: too many waiting (503, retry), or it failed (502). */
function failedInvocation(error: unknown): APIGatewayProxyResult {
  const [statusCode, message, headers] =
    error instanceof Overloaded
      ? [503, 'Too many requests are waiting for the service: retry the same request shortly.', { 'Retry-After': '1' }]
      : [502, 'Internal server error', {}];
  return { statusCode, headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify({ error: message }) };
}

const seconds = (ms: number) => `${ms / 1000} s`;

/**
 * Requests Node's HTTP parser refuses (bad method, oversized headers…), and
 * requests that arrive too slowly, get the API's error shape too.
 */
function refuseMalformed(limits: { headersMs: number; requestMs: number }, error: NodeJS.ErrnoException, socket: Duplex) {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'Request headers are too large.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [
            408,
            'Request Timeout',
            `The request took too long to arrive: send its headers within ${seconds(limits.headersMs)} and all of it within ${seconds(limits.requestMs)}.`,
          ]
        : [400, 'Bad Request', 'Malformed HTTP request.'];
  const body = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * A CONNECT request reaches the handler like any other method (Node hands it
 * over as a socket, not a request/response pair): without this, Node closed
 * the connection with no answer at all.
 */
function answerConnect(handler: ProxyHandler, timeoutMs: number, invocations: InvocationQueue) {
  return (req: IncomingMessage, socket: Duplex) => {
    // Node leaves this socket without an error listener (a client reset must not crash the server)
    // and paused: read and drop what follows, or the client's close is never seen and the socket lingers.
    socket.on('error', () => socket.destroy());
    socket.resume();
    const sourceIp = req.socket.remoteAddress;
    const requestId = randomUUID();
    const reply = (result: APIGatewayProxyResult) => {
      const body = Buffer.from(result.body ?? '', result.isBase64Encoded ? 'base64' : 'utf8');
      const fields = Object.entries(result.headers ?? {}).map(([name, value]) => `${name}: ${String(value)}\r\n`);
      const reason = STATUS_CODES[result.statusCode] ?? '';
      socket.end(
        Buffer.concat([
          Buffer.from(`HTTP/1.1 ${result.statusCode} ${reason}\r\n${fields.join('')}Content-Length: ${body.length}\r\nConnection: close\r\n\r\n`),
          body,
        ]),
      );
    };
    invocations
      .run(() => handler(toProxyEvent(req, Buffer.alloc(0), requestId, sourceIp), lambdaContext(requestId, timeoutMs)))
      .then(reply, (error: unknown) => reply(failedInvocation(error)));
  };
}

/**
 * A small HTTP server that does what API Gateway does in front of the
 * Lambda: builds a proxy event per request, calls the very same handler and
 * writes its result back. Requests over API Gateway's 10 MB limit are
 * refused here, as there. At most `invocations.concurrency` handler calls run
 * at once, as on Lambda; the rest wait their turn (their Lambda timeout
 * starts when their call does).
 */
export function createHttpAdapter(handler: ProxyHandler, options: AdapterOptions = {}): Server {
  const maxBody = options.maxBodyBytes ?? GATEWAY_MAX_BODY;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const invocations = new InvocationQueue(options.invocations ?? DEFAULT_INVOCATION_LIMITS);
  const limits = {
    headersMs: options.headersTimeoutMs ?? REQUEST_TIME_LIMITS.headersMs,
    requestMs: options.requestTimeoutMs ?? REQUEST_TIME_LIMITS.requestMs,
  };
  const timing = {
    headersTimeout: limits.headersMs,
    requestTimeout: limits.requestMs,
    // Node looks for late requests only this often: a tenth of the header limit (at most 1 s) past it at worst.
    connectionsCheckingInterval: Math.min(1000, Math.max(10, limits.headersMs / 10)),
  };
  const server = createServer(timing, (req, res) => {
    // Read now: a request that waits for a handler call may have lost its socket (its client gone) by the time it runs.
    const sourceIp = req.socket.remoteAddress;
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > maxBody) {
        refused = true;
        // The rest of the body is read and dropped, then the connection closed: nothing else can follow this answer on it.
        res.setHeader('Connection', 'close');
        gatewayError(res, 413, `Request body too large: the limit is ${BODY_LIMIT_BYTES / 1024} KiB.`);
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (refused) return;
      const requestId = randomUUID();
      // Inside the queued call: a throw while building the event is a 502 for this request, not a crashed server.
      invocations
        .run(() => handler(toProxyEvent(req, Buffer.concat(chunks), requestId, sourceIp), lambdaContext(requestId, timeoutMs)))
        .then(
          (result) => send(res, result),
          (error: unknown) => send(res, failedInvocation(error)),
        );
    });
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => refuseMalformed(limits, error, socket));
  server.on('connect', answerConnect(handler, timeoutMs, invocations));
  return server;
}

/** Listens and resolves with the bound port; a busy port is a rejected promise with code EADDRINUSE. */
export function listen(server: Server, port: number, host?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.removeListener('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}
